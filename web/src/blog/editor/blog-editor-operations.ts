import { graphql } from '../../apollo/generated';

export const BlogEditorPostQuery = graphql(`
  query BlogEditorPost($idOrSlug: String!) {
    blogPost(idOrSlug: $idOrSlug) {
      id
      title
      slug
      excerpt
      body
      metaDescription
      status
      publishedAt
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
  }
`);

export const UpdateBlogPostMutation = graphql(`
  mutation UpdateBlogPost($id: Int!, $input: BlogPostInput!) {
    updateBlogPost(id: $id, input: $input) {
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
