import type { ReactNode } from 'react';
import { Button, Callout } from '@blueprintjs/core';
import { snackbar } from './toaster';
import './shown-once.css';

/**
 * A secret shown the one time it exists in the clear (a new API key, a webhook endpoint's signing
 * secret): the value to select or copy, and the warning that it will not be shown again.
 */
export function ShownOnce({ label, value, warning }: { label: string; value: string; warning: ReactNode }) {
  const copy = () => void navigator.clipboard?.writeText(value).then(() => snackbar(`${label} copied`));
  return (
    <>
      <div className="shown-once">
        <output aria-label={label} className="shown-once-text">
          {value}
        </output>
        <Button icon="duplicate" text="Copy" onClick={copy} />
      </div>
      <Callout intent="warning" icon="eye-off" className="shown-once-warning">
        {warning}
      </Callout>
    </>
  );
}
