import { useState } from 'react';
import { Button, FormGroup, Icon } from '@blueprintjs/core';
import { MediaBrowserDialog } from '../../common/media-browser/MediaBrowserDialog';
import type { LogoChoice } from './settings-form';

/** The shop's logo: what is chosen, a button that opens the Media Browser on images, and a way to have none. */
export function LogoField({ value, onChange, error }: { value: LogoChoice | null; onChange: (logo: LogoChoice | null) => void; error?: string }) {
  const [browsing, setBrowsing] = useState(false);
  return (
    <FormGroup label="Logo" intent={error ? 'danger' : 'none'} helperText={error ?? 'A picture of the media library, shown in the header beside the name.'}>
      <div className="settings-logo">
        <div className="settings-logo-frame">
          {value ? <img src={`/api/${value.thumbnailPath ?? value.filePath}`} alt={`Logo: ${value.friendlyName}`} /> : <Icon icon="media" size={24} aria-hidden />}
        </div>
        <span className="settings-logo-name">{value ? value.friendlyName : 'No logo'}</span>
        <Button icon="media" text={value ? 'Change logo' : 'Choose logo'} onClick={() => setBrowsing(true)} />
        {value && <Button variant="minimal" icon="cross" text="Remove logo" onClick={() => onChange(null)} />}
      </div>
      <MediaBrowserDialog
        isOpen={browsing}
        kind="IMAGE"
        onClose={() => setBrowsing(false)}
        onSelect={(file) => onChange({ id: file.id, filePath: file.filePath, thumbnailPath: file.thumbnailPath, friendlyName: file.friendlyName })}
      />
    </FormGroup>
  );
}
