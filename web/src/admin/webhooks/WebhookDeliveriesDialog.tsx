import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { WebhookDeliveryStatus } from '../../apollo/generated/graphql';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { dateTime } from '../orders/order-format';
import { RedeliverWebhookMutation, WebhookDeliveriesQuery } from './webhooks-operations';

const STATUS: Record<WebhookDeliveryStatus, { label: string; intent: Intent }> = {
  PENDING: { label: 'Pending', intent: 'warning' },
  SUCCEEDED: { label: 'Succeeded', intent: 'success' },
  FAILED: { label: 'Failed', intent: 'danger' },
};

/** An endpoint's recent deliveries, newest first: event, status, attempts, last answer and when; Redeliver on each. */
export function WebhookDeliveriesDialog({ endpointId, url, onClose }: { endpointId: number; url: string | undefined; onClose: () => void }) {
  const { data, error, loading, refetch, fetchMore } = useQuery(WebhookDeliveriesQuery, { variables: { endpointId }, fetchPolicy: 'cache-and-network' });
  const [redeliver] = useMutation(RedeliverWebhookMutation);
  const page = data?.webhookDeliveries;
  const send = async (deliveryId: number) => {
    try {
      await redeliver({ variables: { deliveryId } });
      void snackbar('Sent again');
    } catch (failure) {
      reportError('redelivering a webhook', 'Failed to send the event again', failure);
    }
  };
  // Older pages are appended by the cache's policy for the list (keyed by endpoint).
  const more = () => void fetchMore({ variables: { after: page!.pageInfo.endCursor } });

  return (
    <Dialog isOpen onClose={onClose} title="Deliveries" icon="list" className="webhook-deliveries-dialog">
      <DialogBody>
        {url && (
          <p>
            To <code>{url}</code>
            {page ? `: ${page.totalCount} in all` : ''}
          </p>
        )}
        {error && !page ? (
          <Callout intent="danger" title="The deliveries could not be loaded">
            <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
          </Callout>
        ) : !page ? (
          <Spinner />
        ) : page.edges.length === 0 ? (
          <NonIdealState icon="inbox" title="No deliveries yet" description="Events the endpoint takes show here as they are sent." />
        ) : (
          <HTMLTable className="webhook-deliveries-table" compact striped>
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th>Attempts</th>
                <th>Last answer</th>
                <th>Next attempt</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {page.edges.map(({ node }) => (
                <tr key={node.id}>
                  <td>
                    <code>{node.eventType}</code>
                    <br />
                    <small className="muted" title={node.eventId}>{dateTime(node.createdAt)}</small>
                  </td>
                  <td data-label="Status">
                    <Tag minimal intent={STATUS[node.status].intent}>{STATUS[node.status].label}</Tag>
                  </td>
                  <td data-label="Attempts">{node.attempts}</td>
                  <td data-label="Last answer">
                    {node.lastAttemptAt ? (
                      <>
                        {node.lastStatusCode ?? '—'} <small className="muted">{dateTime(node.lastAttemptAt)}</small>
                        {node.lastError && (
                          <>
                            <br />
                            <small className="muted">{node.lastError}</small>
                          </>
                        )}
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td data-label="Next attempt">{node.nextAttemptAt ? dateTime(node.nextAttemptAt) : '—'}</td>
                  <td>
                    <Button size="small" variant="minimal" icon="repeat" text="Redeliver" aria-label={`Redeliver ${node.eventType} of ${dateTime(node.createdAt)}`} onClick={() => void send(node.id)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {page?.pageInfo.hasNextPage && <Button text="Older deliveries" loading={loading} onClick={more} />}
            <Button icon="refresh" text="Refresh" onClick={() => void refetch()} />
            <Button intent="primary" text="Close" onClick={onClose} />
          </>
        }
      />
    </Dialog>
  );
}
