import { graphql } from '../../apollo/generated';

export const EmailProblemsQuery = graphql(`
  query AdminEmailProblems {
    emailProblems {
      totalCount
      waitingAfterMinutes
      emails {
        id
        kind
        status
        recipient
        orderId
        attempts
        lastError
        dueAt
        createdAt
      }
    }
  }
`);

export const RetryEmailsMutation = graphql(`
  mutation RetryEmails($ids: [Int!]) {
    retryEmails(ids: $ids)
  }
`);
