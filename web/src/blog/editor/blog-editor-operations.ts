import { graphql } from '../../apollo/generated';

/** The fields the editor reads and writes back after a save. */
export const BlogEditorFields = graphql(`
  fragment BlogEditorFields on BlogPost {
    id
    title
    slug
    excerpt
    body
    metaDescription
    status
    publishedAt
    updatedAt
  }
`);

export const BlogEditorPostQuery = graphql(`
  query BlogEditorPost($idOrSlug: String!) {
    blogPost(idOrSlug: $idOrSlug) {
      ...BlogEditorFields
      coverImage {
        id
        filePath
        thumbnailPath
        friendlyName
      }
    }
  }
`);

export const BlogPreviewQuery = graphql(`
  query BlogPreview($body: String!) {
    blogPreview(body: $body)
  }
`);


export const CreateBlogPostMutation = graphql(`
  mutation CreateBlogPost($input: BlogPostInput!) {
    createBlogPost(input: $input) {
      ...BlogEditorFields
    }
  }
`);

export const UpdateBlogPostMutation = graphql(`
  mutation UpdateBlogPost($id: Int!, $input: BlogPostInput!) {
    updateBlogPost(id: $id, input: $input) {
      ...BlogEditorFields
    }
  }
`);

export const PublishBlogPostMutation = graphql(`
  mutation PublishBlogPost($id: Int!, $publishedAt: DateTimeISO) {
    publishBlogPost(id: $id, publishedAt: $publishedAt) {
      id
      status
      publishedAt
    }
  }
`);

export const UnpublishBlogPostMutation = graphql(`
  mutation UnpublishBlogPost($id: Int!) {
    unpublishBlogPost(id: $id) {
      id
      status
      publishedAt
    }
  }
`);

export const DeleteBlogPostMutation = graphql(`
  mutation DeleteBlogPost($id: Int!) {
    deleteBlogPost(id: $id)
  }
`);
