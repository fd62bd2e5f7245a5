import { useMutation } from '@apollo/client/react';
import { Button, HTMLTable, Tag } from '@blueprintjs/core';
import type { WebhooksTable_EndpointFragment } from '../../apollo/generated/graphql';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { dateTime } from '../orders/order-format';
import { EnableWebhookEndpointMutation } from './webhooks-operations';

/** The endpoints, newest first: URL, events, state, who made it; Deliveries, Turn on (when off) and Delete. */
export function WebhooksTable({ endpoints, onShow, onDelete }: { endpoints: WebhooksTable_EndpointFragment[]; onShow: (id: number) => void; onDelete: (id: number) => void }) {
  const [enable] = useMutation(EnableWebhookEndpointMutation);
  const turnOn = async (endpoint: WebhooksTable_EndpointFragment) => {
    try {
      await enable({ variables: { id: endpoint.id } });
      void snackbar('Endpoint turned on');
    } catch (error) {
      reportError('turning a webhook endpoint on', 'Failed to turn the endpoint on', error);
    }
  };
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
          <tr key={endpoint.id} className={endpoint.enabled ? undefined : 'webhook-off'}>
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
              {endpoint.enabled ? (
                <Tag intent="success" minimal>On</Tag>
              ) : (
                <Tag intent="danger" minimal title={endpoint.disabledReason ?? undefined}>
                  Off since {dateTime(endpoint.disabledAt!)}
                </Tag>
              )}
            </td>
            <td data-label="Created">
              {dateTime(endpoint.createdAt)}
              {endpoint.createdBy && <span className="muted"> by {endpoint.createdBy}</span>}
            </td>
            <td className="webhook-actions">
              <Button size="small" variant="minimal" icon="list" text="Deliveries" aria-label={`Deliveries to ${endpoint.url}`} onClick={() => onShow(endpoint.id)} />
              {!endpoint.enabled && <Button size="small" variant="minimal" intent="success" icon="play" text="Turn on" aria-label={`Turn on ${endpoint.url}`} onClick={() => void turnOn(endpoint)} />}
              <Button size="small" variant="minimal" intent="danger" icon="trash" text="Delete" aria-label={`Delete ${endpoint.url}`} onClick={() => onDelete(endpoint.id)} />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
