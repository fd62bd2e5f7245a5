import { Icon } from '@blueprintjs/core';

export interface MediaTileFile {
  id: number;
  fileName: string;
  filePath: string;
  friendlyName: string;
  thumbnailPath?: string | null;
  kind: string;
  mimeType: string;
  size: number;
}

const AUDIO_NAME = /\.(mp3|ogg|wav)$/i;

/** One file in a grid: a square thumbnail for an image, a player for a song, an icon otherwise. */
export function MediaTile({ file, onClick }: { file: MediaTileFile; onClick: () => void }) {
  const audio = AUDIO_NAME.test(file.fileName) || file.kind === 'AUDIO';
  const image = file.kind === 'IMAGE';
  return (
    <figure className="media-tile">
      <button type="button" className="media-tile-button" onClick={onClick} title={`Select ${file.friendlyName}`} aria-label={`Select ${file.friendlyName}`}>
        {image ? (
          <img className="media-tile-thumb" src={`/api/${file.thumbnailPath ?? file.filePath}`} alt={file.friendlyName} loading="lazy" />
        ) : (
          <span className="media-tile-thumb media-tile-icon">
            <Icon icon={audio ? 'music' : 'document'} size={40} />
          </span>
        )}
      </button>
      {audio && <audio className="media-tile-audio" controls preload="none" src={`/api/${file.filePath}`} />}
      <figcaption className="media-tile-caption" title={file.friendlyName}>
        {file.friendlyName}
      </figcaption>
    </figure>
  );
}
