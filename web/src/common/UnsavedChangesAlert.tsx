import { Alert } from '@blueprintjs/core';
import type { Blocker } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';

/** The question an editor page asks when one leaves it with unsaved changes (see `useUnsavedChanges`). */
export function UnsavedChangesAlert({ blocker }: { blocker: Blocker }) {
  const intl = useIntl();
  return (
    <Alert
      isOpen={blocker.state === 'blocked'}
      intent="warning"
      icon="warning-sign"
      confirmButtonText={intl.formatMessage({ id: 'common.unsaved.leave', defaultMessage: 'Leave without saving' })}
      cancelButtonText={intl.formatMessage({ id: 'common.unsaved.stay', defaultMessage: 'Stay' })}
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      <p>
        <FormattedMessage id="common.unsaved.question" defaultMessage="You have unsaved changes. Leave this page and lose them?" />
      </p>
    </Alert>
  );
}
