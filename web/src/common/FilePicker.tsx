import { useId } from 'react';
import { Button } from '@blueprintjs/core';
import { formatSize } from './format-size';

export const ACCEPTED_MEDIA = '.jpg,.jpeg,.png,.gif,.webp,.mp3,.ogg,.wav,image/*,audio/*';

/** A multi-file picker that lists what was chosen, with sizes and a counter. */
export function FilePicker({ label, files, onChange, accept = ACCEPTED_MEDIA }: { label: string; files: File[]; onChange: (files: File[]) => void; accept?: string }) {
  const id = useId();
  const total = files.reduce((sum, file) => sum + file.size, 0);
  return (
    <div className="file-picker">
      <label htmlFor={id} className="bp6-button file-picker-button">
        <span className="bp6-button-text">{label}</span>
      </label>
      <input
        id={id}
        type="file"
        multiple
        accept={accept}
        className="file-picker-input"
        onChange={(e) => {
          onChange(Array.from(e.target.files ?? []));
          // Cleared, so choosing the same file again (after Clear) still reports a change.
          e.target.value = '';
        }}
        aria-label={label}
      />
      <span className="file-picker-count">
        {files.length === 0 ? 'No files chosen' : `${files.length} file${files.length === 1 ? '' : 's'} selected (${formatSize(total)})`}
      </span>
      {files.length > 0 && (
        <>
          <ul className="file-picker-list">
            {files.map((file) => (
              <li key={`${file.name}-${file.size}-${file.lastModified}`}>
                <span className="file-picker-name">{file.name}</span>
                <span className="file-picker-size">{formatSize(file.size)}</span>
              </li>
            ))}
          </ul>
          <Button variant="minimal" size="small" icon="cross" text="Clear" onClick={() => onChange([])} />
        </>
      )}
    </div>
  );
}
