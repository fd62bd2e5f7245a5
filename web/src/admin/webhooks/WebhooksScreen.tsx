import { useQuery } from '@apollo/client/react';
import { AnchorButton, Button, Callout, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { useUrlParams } from '../../common/url-params';
import { CreateWebhookDialog } from './CreateWebhookDialog';
import { DeleteWebhookAlert } from './DeleteWebhookAlert';
import { WebhookDeliveries } from './WebhookDeliveries';
import { WebhookEndpointsTable } from './WebhookEndpointsTable';
import { WebhookEndpointsQuery } from './webhooks-operations';
import './webhooks.css';

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : null);

/**
 * Webhooks (contract section 19): the endpoints the shop POSTs its events to, each with its events and
 * whether it still receives them, "Add endpoint" (the signing secret shown once), Delete, Turn on again,
 * and an endpoint's recent deliveries with "Redeliver". The dialogs and the endpoint whose deliveries
 * are shown live in the address (`?create=1`, `?delete=3`, `?endpoint=3`), so they survive a reload.
 */
export function WebhooksScreen() {
  const [params, changeParams] = useUrlParams();
  const { data, error, refetch } = useQuery(WebhookEndpointsQuery, { fetchPolicy: 'cache-and-network' });
  const endpoints = data?.webhookEndpoints;
  const deleteId = idParam(params.get('delete'));
  const shownId = idParam(params.get('endpoint'));
  const shown = endpoints?.find((endpoint) => endpoint.id === shownId);

  return (
    <div className="webhooks-screen">
      <div className="webhooks-toolbar">
        <H2>Webhooks</H2>
        <AnchorButton variant="minimal" icon="manual" text="How to verify them" href="/developers#webhooks" target="_blank" rel="noopener" />
        <Button intent="primary" icon="add" text="Add endpoint" onClick={() => changeParams({ create: '1' })} />
      </div>
      {error && !endpoints ? (
        <Callout intent="danger" title="Webhooks could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !endpoints ? (
        <Spinner className="webhooks-state" />
      ) : endpoints.length === 0 ? (
        <NonIdealState
          className="webhooks-state"
          icon="send-message"
          title="No webhooks yet"
          description="An endpoint receives the shop's events (an order paid, a card opened, a product changed) as signed POST requests, so that another service can act on them at once."
        />
      ) : (
        <WebhookEndpointsTable endpoints={endpoints} shownId={shownId} onShow={(id) => changeParams({ endpoint: id === shownId ? null : String(id) })} onDelete={(id) => changeParams({ delete: String(id) })} />
      )}
      {shown && <WebhookDeliveries key={shown.id} endpoint={shown} onClose={() => changeParams({ endpoint: null })} />}
      {params.get('create') === '1' && <CreateWebhookDialog onClose={() => changeParams({ create: null })} />}
      {deleteId !== null && (
        <DeleteWebhookAlert
          key={deleteId}
          id={deleteId}
          url={endpoints?.find((endpoint) => endpoint.id === deleteId)?.url}
          onClose={(deleted) => changeParams(deleted && deleteId === shownId ? { delete: null, endpoint: null } : { delete: null })}
        />
      )}
    </div>
  );
}
