import { Alert } from '@blueprintjs/core';
import type { Blocker } from 'react-router-dom';

/** The question an editor page asks when one leaves it with unsaved changes (see `useUnsavedChanges`). */
export function UnsavedChangesAlert({ blocker }: { blocker: Blocker }) {
  return (
    <Alert
      isOpen={blocker.state === 'blocked'}
      intent="warning"
      icon="warning-sign"
      confirmButtonText="Leave without saving"
      cancelButtonText="Stay"
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      <p>You have unsaved changes. Leave this page and lose them?</p>
    </Alert>
  );
}
