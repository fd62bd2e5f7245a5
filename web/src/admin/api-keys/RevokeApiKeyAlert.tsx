import { useMutation } from '@apollo/client/react';
import { Alert } from '@blueprintjs/core';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { RevokeApiKeyMutation } from './api-keys-operations';

/** "Revoke": the destructive confirmation; from its answer on, every request with the key is refused. */
export function RevokeApiKeyAlert({ id, name, onClose }: { id: number; name: string | undefined; onClose: () => void }) {
  const [revoke, { loading }] = useMutation(RevokeApiKeyMutation);
  const confirm = async () => {
    try {
      await revoke({ variables: { id } });
      void snackbar(`API key ${name ? `“${name}” ` : ''}revoked`);
    } catch (failure) {
      reportError('revoking API key', 'Failed to revoke the API key', failure);
    }
    onClose();
  };
  return (
    <Alert isOpen intent="danger" icon="disable" confirmButtonText="Revoke API key" cancelButtonText="Cancel" loading={loading} onConfirm={() => void confirm()} onCancel={onClose} canEscapeKeyCancel>
      <p>Revoke {name ? <strong>{name}</strong> : 'this API key'}? Whatever uses it is refused from now on; this cannot be undone.</p>
    </Alert>
  );
}
