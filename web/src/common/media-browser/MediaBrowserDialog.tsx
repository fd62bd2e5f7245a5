import { useState } from 'react';
import { useLazyQuery, useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, Classes, Dialog, H5, NonIdealState, Spinner } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
import type { MediaKind } from '../../apollo/generated/graphql';
import { FilePicker } from '../FilePicker';
import { FolderTree } from './FolderTree';
import { MediaFilesQuery, MediaFoldersQuery, UploadProductMediaMutation } from './media-operations';
import { MediaTile, type MediaTileFile } from './MediaTile';
import './media-browser.css';

export type PickedMedia = MediaTileFile;

const ACCEPT_BY_KIND: Record<MediaKind, string> = {
  IMAGE: '.jpg,.jpeg,.png,.gif,.webp,image/*',
  AUDIO: '.mp3,.ogg,.wav,audio/*',
};

/**
 * The Media Browser: pick a file of the library (or upload new ones) for a product, a category or a
 * post. Clicking a file selects it and closes the dialog. With `kind`, only images or only songs are
 * listed and offered for upload (a cover wants an image, a card's song a song).
 */
export function MediaBrowserDialog({
  isOpen,
  onClose,
  onSelect,
  kind,
}: {
  isOpen: boolean;
  onClose: () => void;
  onSelect: (file: PickedMedia) => void;
  kind?: MediaKind;
}) {
  const folders = useQuery(MediaFoldersQuery, { skip: !isOpen, fetchPolicy: 'cache-and-network' });
  const [folderId, setFolderId] = useState<number | null>(null);
  const [loadFiles, files] = useLazyQuery(MediaFilesQuery, { fetchPolicy: 'cache-and-network' });
  const [picked, setPicked] = useState<File[]>([]);
  const [upload, uploading] = useMutation(UploadProductMediaMutation, { refetchQueries: [MediaFoldersQuery] });

  if (folders.error) console.error('Error fetching folders:', folders.error);
  if (files.error) console.error('Error fetching files:', files.error);

  const activate = (id: number) => {
    setFolderId(id);
    void loadFiles({ variables: { folderId: id, first: 100, kind } }).catch(() => undefined);
  };

  const select = (file: PickedMedia) => {
    onSelect(file);
    onClose();
  };

  const onUpload = async () => {
    if (picked.length === 0) return;
    try {
      const result = await upload({ variables: { files: picked } });
      const first = result.data?.uploadProductMedia[0];
      setPicked([]);
      if (first) select(first);
    } catch (e) {
      console.error(e);
      window.alert(`Error uploading files: ${errorMessage(e, e instanceof Error ? e.message : 'Failed to upload files')}`);
    }
  };

  const list = files.data?.mediaFiles.edges.map((edge) => edge.node) ?? [];
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Media Browser" icon="media" className="media-browser" style={{ maxWidth: '80%', width: 1100 }}>
      <div className={Classes.DIALOG_BODY}>
        <div className="media-browser-grid">
          <section className="media-browser-tree" aria-label="Media Library">
            <H5>Media Library</H5>
            {folders.loading && !folders.data ? (
              <Spinner size={20} />
            ) : (
              <FolderTree folders={folders.data?.mediaFolders ?? []} selectedId={folderId} onSelect={activate} />
            )}
          </section>
          <section className="media-browser-files" aria-label="Select File">
            <H5>Select File</H5>
            {folderId === null ? (
              <NonIdealState icon="folder-open" description="Select a folder to view files." />
            ) : files.loading && !files.data ? (
              <Spinner size={24} />
            ) : list.length === 0 ? (
              <NonIdealState icon="document" description="No files in this folder." />
            ) : (
              <div className="media-browser-tiles">
                {list.map((file) => (
                  <MediaTile key={file.id} file={file} onClick={() => select(file)} />
                ))}
              </div>
            )}
            {files.data?.mediaFiles.pageInfo.hasNextPage && (
              <div className="media-browser-more">
                <Button
                  text="Load more"
                  onClick={() => void files.fetchMore({ variables: { after: files.data?.mediaFiles.pageInfo.endCursor } }).catch((e: unknown) => console.error('Error fetching files:', e))}
                />
              </div>
            )}
          </section>
        </div>
        <Card className="media-browser-upload">
          <H5>Upload New Image for this Product</H5>
          <div className="media-browser-upload-row">
            <FilePicker label="Select files" files={picked} onChange={setPicked} accept={kind ? ACCEPT_BY_KIND[kind] : undefined} />
            <Button intent="primary" icon="upload" text="Upload" onClick={onUpload} loading={uploading.loading} disabled={picked.length === 0} />
          </div>
        </Card>
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cancel" onClick={onClose} />
        </div>
      </div>
    </Dialog>
  );
}
