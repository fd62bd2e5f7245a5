import { useState } from 'react';
import { MAX_ASSOCIATED_IMAGES } from '@rules';
import { Button, ButtonGroup, Icon } from '@blueprintjs/core';
import { MediaBrowserDialog } from '../../../common/media-browser/MediaBrowserDialog';
import type { PickedMedia } from './product-form-state';
import { useDropUpload } from './use-drop-upload';

const MAX_IMAGES = MAX_ASSOCIATED_IMAGES;

/** The product's additional images, in display order: add from the Media Browser or by dropping files, reorder, remove. */
export function ImageListField({ images, onChange }: { images: PickedMedia[]; onChange: (images: PickedMedia[]) => void }) {
  const [browsing, setBrowsing] = useState(false);
  const add = (files: PickedMedia[]) => onChange([...images, ...files.filter((file) => !images.some((i) => i.id === file.id))].slice(0, MAX_IMAGES));
  const { dropProps, over, uploading } = useDropUpload('IMAGE', add, { multiple: true });
  const move = (index: number, by: number) => {
    const next = [...images];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item);
    onChange(next);
  };
  return (
    <div className={`image-list-field${over ? ' media-slot-over' : ''}`} {...dropProps} data-slot="Additional Images">
      {images.map((image, index) => (
        <figure key={image.id} className="image-list-item">
          <img src={`/api/${image.thumbnailPath ?? image.filePath}`} alt={image.friendlyName} title={image.friendlyName} />
          <ButtonGroup variant="minimal" size="small" className="image-list-actions">
            <Button icon="chevron-left" aria-label={`Move ${image.friendlyName} earlier`} disabled={index === 0} onClick={() => move(index, -1)} />
            <Button icon="cross" aria-label={`Remove ${image.friendlyName}`} onClick={() => onChange(images.filter((i) => i.id !== image.id))} />
            <Button icon="chevron-right" aria-label={`Move ${image.friendlyName} later`} disabled={index === images.length - 1} onClick={() => move(index, 1)} />
          </ButtonGroup>
        </figure>
      ))}
      {images.length < MAX_IMAGES && (
        <button type="button" className="image-list-add" onClick={() => setBrowsing(true)} aria-label="Add an image">
          <Icon icon="add" />
          <span>{uploading ? 'Uploading…' : 'Add image'}</span>
        </button>
      )}
      <MediaBrowserDialog
        isOpen={browsing}
        kind="IMAGE"
        onClose={() => setBrowsing(false)}
        onSelect={(file) => add([file as PickedMedia])}
      />
    </div>
  );
}
