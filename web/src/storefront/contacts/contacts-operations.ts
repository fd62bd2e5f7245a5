import { graphql } from '../../apollo/generated';

export const ContactFieldsFragment = graphql(`
  fragment ContactsPage_contact on Contact {
    id
    name
    email
    occasions {
      id
      label
      month
      day
      year
      remind
      remindDaysBefore
      nextRemindAt
    }
  }
`);

export const ContactsQuery = graphql(`
  query Contacts($search: String, $first: Int, $after: String) {
    contacts(search: $search, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        cursor
        node {
          ...ContactsPage_contact
        }
      }
    }
  }
`);

export const CreateContactMutation = graphql(`
  mutation CreateContact($input: ContactInput!) {
    createContact(input: $input) {
      ...ContactsPage_contact
    }
  }
`);

export const UpdateContactMutation = graphql(`
  mutation UpdateContact($id: Int!, $input: ContactInput!) {
    updateContact(id: $id, input: $input) {
      ...ContactsPage_contact
    }
  }
`);

export const DeleteContactMutation = graphql(`
  mutation DeleteContact($id: Int!) {
    deleteContact(id: $id)
  }
`);

export const ImportContactsMutation = graphql(`
  mutation ImportContacts($csv: String!) {
    importContacts(csv: $csv) {
      imported
      errors {
        line
        message
      }
    }
  }
`);

export const RememberTimeZoneMutation = graphql(`
  mutation RememberTimeZone($timeZone: String!) {
    rememberTimeZone(timeZone: $timeZone)
  }
`);
