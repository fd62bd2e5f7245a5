import { useMutation } from '@apollo/client/react';
import { Alert } from '@blueprintjs/core';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { DeleteWebhookEndpointMutation } from './webhooks-operations';

/** "Delete": the destructive confirmation; the endpoint goes with its deliveries. */
export function DeleteWebhookAlert({ id, url, onClose }: { id: number; url: string | undefined; onClose: () => void }) {
  const [remove, { loading }] = useMutation(DeleteWebhookEndpointMutation, { refetchQueries: ['WebhookEndpoints'] });
  const confirm = async () => {
    try {
      await remove({ variables: { id } });
      void snackbar('Webhook endpoint deleted');
    } catch (failure) {
      reportError('deleting webhook endpoint', 'Failed to delete the endpoint', failure);
    }
    onClose();
  };
  return (
    <Alert isOpen intent="danger" icon="trash" confirmButtonText="Delete endpoint" cancelButtonText="Cancel" loading={loading} onConfirm={() => void confirm()} onCancel={onClose} canEscapeKeyCancel>
      <p>Delete the endpoint {url ? <code>{url}</code> : ''}? It gets no more events, and its deliveries are forgotten.</p>
    </Alert>
  );
}
