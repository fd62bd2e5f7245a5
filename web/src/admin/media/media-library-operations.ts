import { graphql } from '../../apollo/generated';

export const CreateMediaFolderMutation = graphql(`
  mutation CreateMediaFolder($name: String!, $parentId: Int) {
    createMediaFolder(name: $name, parentId: $parentId) {
      id
      name
      parentId
    }
  }
`);

export const RenameMediaFolderMutation = graphql(`
  mutation RenameMediaFolder($id: Int!, $name: String!) {
    renameMediaFolder(id: $id, name: $name) {
      id
      name
      parentId
    }
  }
`);

export const DeleteMediaFolderMutation = graphql(`
  mutation DeleteMediaFolder($id: Int!) {
    deleteMediaFolder(id: $id) {
      deletedFolderIds
      deletedFileIds
    }
  }
`);

export const RenameMediaFileMutation = graphql(`
  mutation RenameMediaFile($id: Int!, $friendlyName: String!) {
    renameMediaFile(id: $id, friendlyName: $friendlyName) {
      id
      friendlyName
    }
  }
`);

export const DeleteMediaFileMutation = graphql(`
  mutation DeleteMediaFile($id: Int!) {
    deleteMediaFile(id: $id)
  }
`);

export const MediaFileUsagesQuery = graphql(`
  query MediaFileUsages($id: Int!) {
    mediaFile(id: $id) {
      id
      usages {
        kind
        id
        label
      }
    }
  }
`);
