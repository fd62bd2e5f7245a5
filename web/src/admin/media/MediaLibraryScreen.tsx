import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Button, ButtonGroup, Card, H2, Spinner } from '@blueprintjs/core';
import { MediaBrowserDialog } from '../../common/media-browser/MediaBrowserDialog';
import { FolderTree } from '../../common/media-browser/FolderTree';
import { MediaFoldersQuery } from '../../common/media-browser/media-operations';
import { snackbar } from '../../common/toaster';
import { FilesPanel } from './FilesPanel';
import { NameDialog } from '../../common/NameDialog';
import { forgetFolderFiles, removeFilesFromCache } from './media-cache';
import { CreateMediaFolderMutation, DeleteMediaFolderMutation, RenameMediaFolderMutation } from './media-library-operations';
import './media-library.css';

type FolderDialog = { kind: 'root' } | { kind: 'sub'; parentId: number } | { kind: 'rename'; id: number; name: string } | null;

/** The Media Library: a folder tree on the left, the selected folder's files on the right. */
export function MediaLibraryScreen() {
  const folders = useQuery(MediaFoldersQuery);
  const [selected, setSelected] = useState<number | null>(null);
  const [dialog, setDialog] = useState<FolderDialog>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [browsing, setBrowsing] = useState(false);
  const [uploadRequested, setUploadRequested] = useState(0);

  const [createFolder] = useMutation(CreateMediaFolderMutation, {
    update(cache, { data }) {
      if (!data) return;
      cache.updateQuery({ query: MediaFoldersQuery }, (current) => (current ? { mediaFolders: [...current.mediaFolders, data.createMediaFolder] } : current));
    },
  });
  const [renameFolder] = useMutation(RenameMediaFolderMutation);
  const [deleteFolder] = useMutation(DeleteMediaFolderMutation, {
    update(cache, { data }) {
      if (!data) return;
      const { deletedFolderIds, deletedFileIds } = data.deleteMediaFolder;
      removeFilesFromCache(cache, deletedFileIds);
      forgetFolderFiles(cache, deletedFolderIds);
      for (const id of deletedFolderIds) cache.evict({ id: cache.identify({ __typename: 'MediaFolder', id }) });
      cache.gc();
    },
  });

  useEffect(() => {
    if (!folders.error) return;
    console.error('Error fetching folders:', folders.error);
    void snackbar('Error fetching folders: Failed to fetch folders', 'danger');
  }, [folders.error]);

  const onName = async (name: string) => {
    const current = dialog;
    setDialog(null);
    if (!current) return;
    if (current.kind === 'rename') {
      try {
        await renameFolder({ variables: { id: current.id, name } });
        void snackbar('Folder renamed successfully!');
      } catch {
        void snackbar('Error renaming folder: Failed to rename folder or file', 'danger');
      }
      return;
    }
    const root = current.kind === 'root';
    try {
      const result = await createFolder({ variables: { name, parentId: root ? null : current.parentId } });
      void snackbar(root ? 'Root folder created successfully!' : 'Folder created successfully!');
      if (result.data) setSelected(result.data.createMediaFolder.id);
    } catch {
      void snackbar(root ? 'Error creating root folder: Failed to create root folder' : 'Error creating folder: Failed to create folder', 'danger');
    }
  };

  const onDeleteFolder = async () => {
    const id = deleting;
    setDeleting(null);
    if (id === null) return;
    try {
      const result = await deleteFolder({ variables: { id } });
      if (selected !== null && result.data?.deleteMediaFolder.deletedFolderIds.includes(selected)) setSelected(null);
      void snackbar('Folder deleted successfully!');
    } catch {
      void snackbar('Error deleting folder: Failed to delete folder', 'danger');
    }
  };

  const list = folders.data?.mediaFolders ?? [];
  return (
    <div className="media-library">
      <div className="media-library-head">
        <H2>Media Library</H2>
        <Button variant="minimal" icon="search-template" text="Open Media Browser" onClick={() => setBrowsing(true)} />
      </div>
      <div className="media-library-columns">
        <Card className="media-library-folders">
          <div className="media-library-toolbar">
            <Button icon="folder-new" text="Create Top Level Folder" onClick={() => setDialog({ kind: 'root' })} />
            <Button icon="folder-new" text="Create Subfolder" disabled={selected === null} onClick={() => selected !== null && setDialog({ kind: 'sub', parentId: selected })} />
            <Button icon="upload" intent="primary" text="Upload Files" disabled={selected === null} onClick={() => setUploadRequested((n) => n + 1)} />
          </div>
          {folders.loading && !folders.data ? (
            <Spinner size={24} />
          ) : list.length === 0 ? (
            <p className="muted">No folders yet. Create one to start.</p>
          ) : (
            <FolderTree
              folders={list}
              selectedId={selected}
              onSelect={setSelected}
              renderActions={(folder) => (
                <ButtonGroup variant="minimal" size="small" className="media-tree-actions">
                  <Button icon="edit" aria-label={`Rename folder ${folder.name}`} onClick={(e) => (e.stopPropagation(), setDialog({ kind: 'rename', id: folder.id, name: folder.name }))} />
                  <Button icon="trash" intent="danger" aria-label={`Delete folder ${folder.name}`} onClick={(e) => (e.stopPropagation(), setDeleting(folder.id))} />
                </ButtonGroup>
              )}
            />
          )}
        </Card>
        <FilesPanel folderId={selected} uploadRequested={uploadRequested} />
      </div>

      <NameDialog
        isOpen={dialog !== null}
        title={dialog?.kind === 'rename' ? 'Rename Folder' : dialog?.kind === 'sub' ? 'Create Subfolder' : 'Create Top Level Folder'}
        label="Folder name"
        initial={dialog?.kind === 'rename' ? dialog.name : ''}
        confirmText={dialog?.kind === 'rename' ? 'Rename' : 'Create'}
        onConfirm={(name) => void onName(name)}
        onClose={() => setDialog(null)}
      />
      <Alert isOpen={deleting !== null} intent="danger" icon="trash" confirmButtonText="Delete" cancelButtonText="Cancel" onConfirm={onDeleteFolder} onCancel={() => setDeleting(null)}>
        <p>Are you sure you want to delete this folder and all its contents?</p>
      </Alert>
      <MediaBrowserDialog isOpen={browsing} onClose={() => setBrowsing(false)} onSelect={(file) => void snackbar(`Selected ${file.friendlyName}`)} />
    </div>
  );
}
