import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Alert, Button, ButtonGroup, Card, Dialog, DialogBody, DialogFooter, NonIdealState, ProgressBar, Spinner } from '@blueprintjs/core';
import { FilePicker } from '../../common/FilePicker';
import { MediaTile } from '../../common/media-browser/MediaTile';
import { MediaFilesQuery, MediaFoldersQuery } from '../../common/media-browser/media-operations';
import { snackbar } from '../../common/toaster';
import { NameDialog } from '../../common/NameDialog';
import { removeFilesFromCache } from './media-cache';
import { DeleteMediaFileMutation, MediaFileUsagesQuery, RenameMediaFileMutation } from './media-library-operations';
import { UploadError, uploadFiles } from './upload-files';

const PAGE = 100;

interface FileRef {
  id: number;
  friendlyName: string;
}

/** The files of the selected folder: a grid with rename and delete, uploads by dialog or by dropping files. */
export function FilesPanel({ folderId, uploadRequested }: { folderId: number | null; uploadRequested: number }) {
  const client = useApolloClient();
  const files = useQuery(MediaFilesQuery, { variables: { folderId: folderId ?? 0, first: PAGE }, skip: folderId === null });
  const [renaming, setRenaming] = useState<FileRef | null>(null);
  const [deleting, setDeleting] = useState<FileRef | null>(null);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [picked, setPicked] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const [renameFile] = useMutation(RenameMediaFileMutation);
  const [deleteFile] = useMutation(DeleteMediaFileMutation);
  const usages = useQuery(MediaFileUsagesQuery, { variables: { id: deleting?.id ?? 0 }, skip: !deleting, fetchPolicy: 'network-only' });
  const firstRequest = useRef(uploadRequested);

  useEffect(() => {
    if (uploadRequested !== firstRequest.current && folderId !== null) setUploadOpen(true);
  }, [uploadRequested, folderId]);

  useEffect(() => {
    if (!files.error) return;
    console.error('Error fetching files:', files.error);
    void snackbar('Error fetching files: Failed to fetch files', 'danger');
  }, [files.error]);

  const upload = async (chosen: File[]) => {
    if (folderId === null || chosen.length === 0) return;
    setUploadOpen(false);
    setProgress(0);
    try {
      await uploadFiles(folderId, chosen, setProgress);
      setPicked([]);
      await client.refetchQueries({ include: [MediaFilesQuery, MediaFoldersQuery] });
      void snackbar('Files uploaded successfully!');
    } catch (error) {
      const detail = error instanceof UploadError ? ` (${error.statusText})${error.message ? `: ${error.message}` : ''}` : '';
      void snackbar(`Error uploading files: Failed to upload files${detail}`, 'danger');
    } finally {
      setProgress(null);
    }
  };

  const onRename = async (friendlyName: string) => {
    const file = renaming;
    setRenaming(null);
    if (!file) return;
    try {
      await renameFile({ variables: { id: file.id, friendlyName } });
      void snackbar('File renamed successfully!');
    } catch {
      void snackbar('Error renaming file: Failed to rename folder or file', 'danger');
    }
  };

  const onDelete = async () => {
    const file = deleting;
    setDeleting(null);
    if (!file) return;
    try {
      await deleteFile({
        variables: { id: file.id },
        update(cache) {
          removeFilesFromCache(cache, [file.id]);
          cache.gc();
        },
      });
      void snackbar('File deleted successfully!');
    } catch {
      void snackbar('Error deleting file: Failed to delete file', 'danger');
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void upload(Array.from(event.dataTransfer.files));
  };

  if (folderId === null) {
    return (
      <Card className="media-library-files">
        <NonIdealState icon="folder-open" description="Select a folder to view files." />
      </Card>
    );
  }
  const list = files.data?.mediaFiles.edges.map((edge) => edge.node) ?? [];
  const used = usages.data?.mediaFile.usages ?? [];
  return (
    <Card
      className={`media-library-files${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => (e.preventDefault(), setDragging(true))}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      aria-label="Files"
    >
      {progress !== null && (
        <div className="media-upload-progress" role="status">
          <span>Uploading… {Math.round(progress * 100)}%</span>
          <ProgressBar value={progress} intent="primary" />
        </div>
      )}
      {files.loading && !files.data ? (
        <Spinner size={24} />
      ) : list.length === 0 ? (
        <NonIdealState icon="document" description="No files in this folder." action={<span className="muted">Drop files here to upload them.</span>} />
      ) : (
        <div className="media-library-grid">
          {list.map((file) => (
            <div key={file.id} className="media-library-item">
              <MediaTile file={file} onClick={() => window.open(`/api/${file.filePath}`, '_blank', 'noopener')} />
              <ButtonGroup variant="minimal" size="small" className="media-library-item-actions">
                <Button icon="edit" text="Rename" aria-label={`Rename file ${file.friendlyName}`} onClick={() => setRenaming(file)} />
                <Button icon="trash" intent="danger" text="Delete" aria-label={`Delete file ${file.friendlyName}`} onClick={() => setDeleting(file)} />
              </ButtonGroup>
            </div>
          ))}
        </div>
      )}
      {files.data?.mediaFiles.pageInfo.hasNextPage && (
        <div className="media-library-more">
          <Button text="Load more" onClick={() => void files.fetchMore({ variables: { after: files.data!.mediaFiles.pageInfo.endCursor } })} />
        </div>
      )}

      <Dialog isOpen={uploadOpen} onClose={() => setUploadOpen(false)} title="Upload Files" icon="upload">
        <DialogBody>
          <FilePicker label="Select files" files={picked} onChange={setPicked} />
        </DialogBody>
        <DialogFooter
          actions={[
            <Button key="cancel" text="Cancel" onClick={() => setUploadOpen(false)} />,
            <Button key="upload" intent="primary" text="Upload" disabled={picked.length === 0} onClick={() => void upload(picked)} />,
          ]}
        />
      </Dialog>
      <NameDialog isOpen={renaming !== null} title="Rename File" label="File name" initial={renaming?.friendlyName ?? ''} confirmText="Rename" onConfirm={(name) => void onRename(name)} onClose={() => setRenaming(null)} />
      <Alert isOpen={deleting !== null} intent="danger" icon="trash" confirmButtonText="Delete" cancelButtonText="Cancel" onConfirm={onDelete} onCancel={() => setDeleting(null)}>
        <p>Are you sure you want to delete this file?</p>
        {used.length > 0 && (
          <>
            <p>It is used by:</p>
            <ul>
              {used.map((usage) => (
                <li key={`${usage.kind}-${usage.id}`}>
                  {usage.label} ({usage.kind})
                </li>
              ))}
            </ul>
            <p>Those will lose it.</p>
          </>
        )}
      </Alert>
    </Card>
  );
}
