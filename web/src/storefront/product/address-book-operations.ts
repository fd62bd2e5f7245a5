import { graphql } from '../../apollo/generated';

/** The contacts "From address book" offers: the first matches of what the shopper types, searched by the server. */
export const ContactPickerQuery = graphql(`
  query ContactPicker($search: String) {
    contacts(search: $search, first: 20) {
      totalCount
      edges {
        node {
          id
          name
          email
        }
      }
    }
  }
`);
