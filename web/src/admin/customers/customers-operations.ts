import { graphql } from '../../apollo/generated';

export const CustomersQuery = graphql(`
  query AdminCustomers($search: String, $sort: CustomerSort, $descending: Boolean, $first: Int, $after: String) {
    customers(search: $search, sort: $sort, descending: $descending, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          username
          email
          confirmed
          ordersCount
          totalSpent
          membership
          lastOrderAt
          createdAt
        }
      }
    }
  }
`);

export const CustomerQuery = graphql(`
  query AdminCustomer($id: Int!, $after: String) {
    customer(id: $id) {
      id
      username
      email
      confirmed
      emailConfirmedAt
      ordersCount
      totalSpent
      membership
      lastOrderAt
      createdAt
      orders(first: 20, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            id
            status
            total
            refundedAmount
            createdAt
          }
        }
      }
    }
  }
`);
