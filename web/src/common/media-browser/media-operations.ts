import { graphql } from '../../apollo/generated';

export const MediaFileFields = graphql(`
  fragment MediaFileFields on MediaFile {
    id
    fileName
    filePath
    friendlyName
    folderId
    mimeType
    size
    width
    height
    thumbnailPath
    kind
  }
`);

export const MediaFoldersQuery = graphql(`
  query MediaFolders {
    mediaFolders {
      id
      name
      parentId
    }
  }
`);

export const MediaFilesQuery = graphql(`
  query MediaFiles($folderId: Int!, $first: Int, $after: String, $kind: MediaKind) {
    mediaFiles(folderId: $folderId, first: $first, after: $after, kind: $kind) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          ...MediaFileFields
        }
      }
    }
  }
`);

export const UploadProductMediaMutation = graphql(`
  mutation UploadProductMedia($files: [Upload!]!) {
    uploadProductMedia(files: $files) {
      ...MediaFileFields
    }
  }
`);
