import { Alert } from '@blueprintjs/core';

/** A destructive confirmation: the question, Cancel, and a red Delete. */
export function ConfirmAlert({ isOpen, message, onConfirm, onCancel, confirmText = 'Delete' }: { isOpen: boolean; message: string; onConfirm: () => void; onCancel: () => void; confirmText?: string }) {
  return (
    <Alert isOpen={isOpen} intent="danger" icon="trash" confirmButtonText={confirmText} cancelButtonText="Cancel" onConfirm={onConfirm} onCancel={onCancel} canEscapeKeyCancel>
      <p>{message}</p>
    </Alert>
  );
}
