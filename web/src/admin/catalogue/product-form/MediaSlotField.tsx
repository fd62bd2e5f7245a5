import { useState } from 'react';
import { Button, Icon, Spinner } from '@blueprintjs/core';
import type { MediaKind } from '../../../apollo/generated/graphql';
import { MediaBrowserDialog } from '../../../common/media-browser/MediaBrowserDialog';
import type { PickedMedia } from './product-form-state';
import { useDropUpload } from './use-drop-upload';

/**
 * One media slot of the product form (the main image, a card image, a song): what is chosen, a
 * button that opens the Media Browser on images or songs only, and a way to empty the slot. A file
 * dropped onto it is uploaded into the media library and chosen.
 */
export function MediaSlotField({ label, kind, value, onChange, large = false }: { label: string; kind: MediaKind; value: PickedMedia | null; onChange: (file: PickedMedia | null) => void; large?: boolean }) {
  const [browsing, setBrowsing] = useState(false);
  const image = kind === 'IMAGE';
  const { dropProps, over, uploading } = useDropUpload(kind, ([file]) => file && onChange(file));
  return (
    <div className={`media-slot${large ? ' media-slot-large' : ''}${image ? '' : ' media-slot-audio'}${over ? ' media-slot-over' : ''}`} {...dropProps} data-slot={label}>
      <span className="media-slot-label">{label}</span>
      {uploading && <Spinner size={16} className="media-slot-uploading" aria-label={`Uploading to ${label}`} />}
      {image ? (
        // A click on the picture opens the Media Browser too; keyboards use the Choose button.
        <div className="media-slot-frame" onClick={() => setBrowsing(true)} title={value ? value.friendlyName : `Choose ${label}`}>
          {value ? <img src={`/api/${value.thumbnailPath ?? value.filePath}`} alt={`${label}: ${value.friendlyName}`} /> : <Icon icon="media" size={large ? 32 : 20} />}
        </div>
      ) : (
        <div className="media-slot-song">
          {value ? (
            <>
              <span className="media-slot-name" title={value.friendlyName}>
                <Icon icon="music" size={12} /> {value.friendlyName}
              </span>
              <audio controls preload="none" src={`/api/${value.filePath}`} />
            </>
          ) : (
            <span className="media-slot-name muted">No song chosen</span>
          )}
        </div>
      )}
      <div className="media-slot-actions">
        <Button size="small" variant="minimal" icon={image ? 'media' : 'music'} text="Choose" aria-label={`Choose ${label}`} onClick={() => setBrowsing(true)} />
        {value && <Button size="small" variant="minimal" icon="cross" aria-label={`Clear ${label}`} title="Clear" onClick={() => onChange(null)} />}
      </div>
      <MediaBrowserDialog isOpen={browsing} kind={kind} onClose={() => setBrowsing(false)} onSelect={(file) => onChange(file as PickedMedia)} />
    </div>
  );
}
