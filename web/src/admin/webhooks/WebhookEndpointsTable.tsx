import { useMutation } from '@apollo/client/react';
import { Button, HTMLTable, Tag, Tooltip } from '@blueprintjs/core';
import type { WebhookEndpointRow_EndpointFragment } from '../../apollo/generated/graphql';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { dateTime } from '../orders/order-format';
import { EnableWebhookEndpointMutation } from './webhooks-operations';

/** An endpoint's state: receiving, or turned off (after three days of failures) with why, and "Turn on". */
function EndpointState({ endpoint }: { endpoint: WebhookEndpointRow_EndpointFragment }) {
  const [enable, { loading }] = useMutation(EnableWebhookEndpointMutation);
  if (endpoint.enabled) return <Tag intent="success" minimal>Active</Tag>;
  const turnOn = async () => {
    try {
      await enable({ variables: { id: endpoint.id } });
      void snackbar('Endpoint turned on: it receives new events again');
    } catch (failure) {
      reportError('turning on webhook endpoint', 'Failed to turn the endpoint on', failure);
    }
  };
  return (
    <span className="webhook-off">
      <Tooltip content={endpoint.disabledReason ?? 'Turned off'} placement="top">
        <Tag intent="danger" minimal tabIndex={0}>
          Turned off{endpoint.disabledAt ? ` ${dateTime(endpoint.disabledAt)}` : ''}
        </Tag>
      </Tooltip>
      <Button size="small" variant="minimal" icon="power" text="Turn on" loading={loading} aria-label={`Turn on ${endpoint.url}`} onClick={() => void turnOn()} />
    </span>
  );
}

/** The endpoints, newest first: URL, events, state, who added it, and its deliveries and Delete. */
export function WebhookEndpointsTable({ endpoints, shownId, onShow, onDelete }: { endpoints: WebhookEndpointRow_EndpointFragment[]; shownId: number | null; onShow: (id: number) => void; onDelete: (id: number) => void }) {
  return (
    <HTMLTable className="webhooks-table" striped interactive={false}>
      <thead>
        <tr>
          <th>URL</th>
          <th>Events</th>
          <th>State</th>
          <th>Created</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id} className={endpoint.id === shownId ? 'webhook-shown' : undefined}>
            <td className="webhook-url-cell">
              <code>{endpoint.url}</code>
            </td>
            <td className="webhook-events-cell">
              {endpoint.events.map((event) => (
                <Tag key={event} minimal className="webhook-event">
                  {event}
                </Tag>
              ))}
            </td>
            <td data-label="State">
              <EndpointState endpoint={endpoint} />
            </td>
            <td data-label="Created">
              {dateTime(endpoint.createdAt)}
              {endpoint.createdBy && <span className="muted"> by {endpoint.createdBy}</span>}
            </td>
            <td className="webhook-actions">
              <Button size="small" variant="minimal" icon="history" text="Deliveries" active={endpoint.id === shownId} aria-label={`Deliveries to ${endpoint.url}`} aria-pressed={endpoint.id === shownId} onClick={() => onShow(endpoint.id)} />
              <Button size="small" variant="minimal" intent="danger" icon="trash" aria-label={`Delete ${endpoint.url}`} title="Delete" onClick={() => onDelete(endpoint.id)} />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
