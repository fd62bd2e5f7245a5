import { graphql } from '../../apollo/generated';

export const AuditLogQuery = graphql(`
  query AdminAuditLog($actorId: Int, $entity: String, $oldestFirst: Boolean, $first: Int, $after: String) {
    auditLog(actorId: $actorId, entity: $entity, oldestFirst: $oldestFirst, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          at
          actorId
          actorName
          actorRole
          entity
          entityId
          action
          summary
        }
      }
    }
  }
`);

export const AuditActorsQuery = graphql(`
  query AdminAuditActors {
    auditActors {
      id
      username
    }
  }
`);
