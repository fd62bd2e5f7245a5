import { graphql } from '../apollo/generated';

/** The blog's list of posts (also inlined into the /blog page by the server). */
export const BlogPostsQuery = graphql(`
  query BlogPosts($first: Int, $after: String, $status: BlogPostStatus) {
    blogPosts(first: $first, after: $after, status: $status) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          slug
          title
          excerpt
          status
          publishedAt
          updatedAt
          coverImage {
            id
            filePath
            thumbnailPath
            width
            height
            srcSet
          }
        }
      }
    }
  }
`);
