import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, H3, HTMLTable, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { WebhookDeliveryStatus, WebhookEndpointRow_EndpointFragment } from '../../apollo/generated/graphql';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { dateTime } from '../orders/order-format';
import { RedeliverWebhookMutation, WebhookDeliveriesQuery } from './webhooks-operations';

const PAGE = 25;
/** While a delivery on the first page is on its way, the panel follows it (retries move on their own). */
const POLL_MS = 10_000;
const when = (value: string | null | undefined) => (value ? dateTime(value) : '—');
const STATUS: Record<WebhookDeliveryStatus, { text: string; intent: Intent }> = {
  PENDING: { text: 'Pending', intent: 'warning' },
  SUCCEEDED: { text: 'Delivered', intent: 'success' },
  FAILED: { text: 'Failed', intent: 'danger' },
};

/** One delivery's "Redeliver": the same event (same id) sent again now (a pending one without waiting for its next attempt). */
function Redeliver({ id, label }: { id: number; label: string }) {
  const [redeliver, { loading }] = useMutation(RedeliverWebhookMutation, { refetchQueries: ['WebhookDeliveries'] });
  const send = async () => {
    try {
      await redeliver({ variables: { deliveryId: id } });
      void snackbar('Queued to be sent again now, with the same event id');
    } catch (failure) {
      reportError('redelivering webhook', 'Failed to redeliver', failure);
    }
  };
  return <Button size="small" variant="minimal" icon="refresh" text="Redeliver" loading={loading} aria-label={`Redeliver ${label}`} onClick={() => void send()} />;
}

/** An endpoint's recent deliveries, newest first: the event, where it stands, the attempts and the last answer. */
export function WebhookDeliveries({ endpoint, onClose }: { endpoint: WebhookEndpointRow_EndpointFragment; onClose: () => void }) {
  const [following, setFollowing] = useState(true);
  const { data, error, loading, refetch, fetchMore } = useQuery(WebhookDeliveriesQuery, { variables: { endpointId: endpoint.id, first: PAGE }, fetchPolicy: 'cache-and-network', pollInterval: following ? POLL_MS : 0, notifyOnNetworkStatusChange: true });
  const page = data?.webhookDeliveries;
  const deliveries = page?.edges.map((edge) => edge.node);
  // A poll reads the first page again, which would drop the older pages shown: it stops once they are, and while nothing is pending.
  const shouldFollow = !!deliveries && deliveries.length <= PAGE && deliveries.some((delivery) => delivery.status === 'PENDING');
  useEffect(() => setFollowing(shouldFollow), [shouldFollow]);

  return (
    <section className="webhook-deliveries" aria-labelledby="webhook-deliveries-title">
      <div className="webhooks-toolbar">
        <H3 id="webhook-deliveries-title">
          Deliveries to <code>{endpoint.url}</code>
        </H3>
        <Button variant="minimal" icon="refresh" aria-label="Refresh deliveries" title="Refresh" loading={loading && !!deliveries} onClick={() => void refetch()} />
        <Button variant="minimal" icon="cross" aria-label="Close deliveries" title="Close" onClick={onClose} />
      </div>
      {error && !deliveries ? (
        <Callout intent="danger" title="Deliveries could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !deliveries ? (
        <Spinner className="webhooks-state" size={30} />
      ) : deliveries.length === 0 ? (
        <NonIdealState className="webhooks-state" icon="inbox" title="No deliveries yet" description={`Each ${endpoint.events.join(', ')} event from now on is listed here.`} />
      ) : (
        <>
          <HTMLTable className="webhooks-table webhook-deliveries-table" striped interactive={false}>
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th>Attempts</th>
                <th>Last answer</th>
                <th>Last attempt</th>
                <th>Next attempt</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td className="webhook-event-cell">
                    <strong>{delivery.eventType}</strong>
                    <br />
                    <code className="muted" title="ArtSong-Event-Id">
                      {delivery.eventId}
                    </code>
                  </td>
                  <td data-label="Status">
                    <Tag minimal intent={STATUS[delivery.status].intent}>
                      {STATUS[delivery.status].text}
                    </Tag>
                  </td>
                  <td data-label="Attempts">{delivery.attempts}</td>
                  <td data-label="Last answer" className="webhook-answer">
                    {delivery.lastStatusCode ? <code>HTTP {delivery.lastStatusCode}</code> : null}
                    {delivery.lastError && delivery.status !== 'SUCCEEDED' ? <span className="muted"> {delivery.lastError}</span> : null}
                    {!delivery.lastStatusCode && !delivery.lastError ? '—' : null}
                  </td>
                  <td data-label="Last attempt">{when(delivery.lastAttemptAt)}</td>
                  <td data-label="Next attempt">{when(delivery.nextAttemptAt)}</td>
                  <td className="webhook-actions">
                    <Redeliver id={delivery.id} label={`${delivery.eventType} ${delivery.eventId}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          {page!.pageInfo.hasNextPage && (
            <Button className="webhook-more" text="Show older deliveries" loading={loading} onClick={() => void fetchMore({ variables: { after: page!.pageInfo.endCursor } })} />
          )}
        </>
      )}
    </section>
  );
}
