import { useMutation } from '@apollo/client/react';
import { Alert } from '@blueprintjs/core';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { DeleteWebhookEndpointMutation } from './webhooks-operations';

/** "Delete": the destructive confirmation; the endpoint and its deliveries go, and nothing more is sent to it. */
export function DeleteWebhookAlert({ id, url, onClose }: { id: number; url: string | undefined; onClose: (deleted: boolean) => void }) {
  const [remove, { loading }] = useMutation(DeleteWebhookEndpointMutation, { refetchQueries: ['WebhookEndpoints'], awaitRefetchQueries: true });
  const confirm = async () => {
    let deleted = false;
    try {
      await remove({ variables: { id } });
      deleted = true;
      void snackbar('Webhook endpoint deleted');
    } catch (failure) {
      reportError('deleting webhook endpoint', 'Failed to delete the webhook endpoint', failure);
    }
    onClose(deleted);
  };
  return (
    <Alert isOpen intent="danger" icon="trash" confirmButtonText="Delete endpoint" cancelButtonText="Cancel" loading={loading} onConfirm={() => void confirm()} onCancel={() => onClose(false)} canEscapeKeyCancel>
      <p>
        Delete the endpoint {url ? <code className="webhook-alert-url">{url}</code> : null}? Nothing more is sent to it, and its deliveries are deleted with it; this cannot be undone.
      </p>
    </Alert>
  );
}
