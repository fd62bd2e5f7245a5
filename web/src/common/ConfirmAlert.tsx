import { Alert } from '@blueprintjs/core';
import { useIntl } from 'react-intl';

/** A destructive confirmation: the question, Cancel, and a red Delete, in the page's language unless told otherwise. */
export function ConfirmAlert({ isOpen, message, onConfirm, onCancel, confirmText, cancelText }: { isOpen: boolean; message: string; onConfirm: () => void; onCancel: () => void; confirmText?: string; cancelText?: string }) {
  const intl = useIntl();
  return (
    <Alert isOpen={isOpen} intent="danger" icon="trash" confirmButtonText={confirmText ?? intl.formatMessage({ id: 'common.delete', defaultMessage: 'Delete' })} cancelButtonText={cancelText ?? intl.formatMessage({ id: 'common.cancel', defaultMessage: 'Cancel' })} onConfirm={onConfirm} onCancel={onCancel} canEscapeKeyCancel>
      <p>{message}</p>
    </Alert>
  );
}
