import { useState, type DragEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { errorMessage } from '../../../apollo/errors';
import type { MediaKind } from '../../../apollo/generated/graphql';
import { MediaFoldersQuery, UploadProductMediaMutation } from '../../../common/media-browser/media-operations';
import { snackbar } from '../../../common/toaster';
import type { PickedMedia } from './product-form-state';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

/**
 * A media slot that takes a dropped file: the file goes into the media library (as the Media
 * Browser's upload puts it) and `onUploaded` gets the library's files, so the same upload can be
 * chosen for other slots afterwards. Files of the wrong kind are refused before anything is sent.
 */
export function useDropUpload(kind: MediaKind, onUploaded: (files: PickedMedia[]) => void, options: { multiple?: boolean } = {}) {
  const [upload, { loading }] = useMutation(UploadProductMediaMutation, { refetchQueries: [MediaFoldersQuery] });
  const [over, setOver] = useState(false);
  const wanted = kind === 'IMAGE' ? 'image/' : 'audio/';

  const onDrop = async (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setOver(false);
    const dropped = Array.from(event.dataTransfer.files);
    const files = options.multiple ? dropped : dropped.slice(0, 1);
    if (files.length === 0) return;
    if (files.some((file) => !file.type.startsWith(wanted))) {
      void snackbar(kind === 'IMAGE' ? 'Only an image can go here.' : 'Only a song (an audio file) can go here.', 'danger');
      return;
    }
    try {
      const result = await upload({ variables: { files } });
      const uploaded = (result.data?.uploadProductMedia ?? []) as PickedMedia[];
      if (uploaded.length) {
        onUploaded(uploaded);
        void snackbar(uploaded.length === 1 ? `${uploaded[0]!.friendlyName} was added to the media library.` : `${uploaded.length} files were added to the media library.`);
      }
    } catch (failure) {
      void snackbar(errorMessage(failure, 'The file could not be uploaded.'), 'danger');
    }
  };

  const dropProps = {
    onDragOver: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (event: DragEvent) => void onDrop(event),
  };
  return { dropProps, over, uploading: loading };
}
