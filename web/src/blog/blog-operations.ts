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

/** One post (also inlined into its page /blog/{slug} by the server). */
export const BlogPostQuery = graphql(`
  query BlogPost($idOrSlug: String!) {
    blogPost(idOrSlug: $idOrSlug) {
      id
      slug
      title
      excerpt
      html
      status
      publishedAt
      description
      author {
        username
      }
      coverImage {
        id
        filePath
        friendlyName
        thumbnailPath
        width
        height
        srcSet
      }
    }
  }
`);
