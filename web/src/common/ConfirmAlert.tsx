import { Alert } from '@blueprintjs/core';

/** A destructive confirmation: the question, Cancel, and a red Delete (the storefront says both in the page's language). */
export function ConfirmAlert({ isOpen, message, onConfirm, onCancel, confirmText = 'Delete', cancelText = 'Cancel' }: { isOpen: boolean; message: string; onConfirm: () => void; onCancel: () => void; confirmText?: string; cancelText?: string }) {
  return (
    <Alert isOpen={isOpen} intent="danger" icon="trash" confirmButtonText={confirmText} cancelButtonText={cancelText} onConfirm={onConfirm} onCancel={onCancel} canEscapeKeyCancel>
      <p>{message}</p>
    </Alert>
  );
}
