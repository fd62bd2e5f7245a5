import { useQuery } from '@apollo/client/react';
import { Button, Callout, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { useUrlParams } from '../../common/url-params';
import { CreateWebhookDialog } from './CreateWebhookDialog';
import { DeleteWebhookAlert } from './DeleteWebhookAlert';
import { WebhookDeliveriesDialog } from './WebhookDeliveriesDialog';
import { WebhooksTable } from './WebhooksTable';
import { WebhookEndpointsQuery } from './webhooks-operations';
import './webhooks.css';

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : null);

/**
 * Webhooks (contract section 19): the endpoints the shop POSTs its events to, "Add endpoint" (the
 * signing secret shown once), an endpoint's recent deliveries with Redeliver, Turn on for one that
 * was turned off, and Delete. The dialogs live in the address (`?create=1`, `?endpoint=3`,
 * `?delete=3`) so they survive a reload; a created secret never does.
 */
export function WebhooksScreen() {
  const [params, changeParams] = useUrlParams();
  const { data, error, refetch } = useQuery(WebhookEndpointsQuery, { fetchPolicy: 'cache-and-network' });
  const endpoints = data?.webhookEndpoints;
  const shownId = idParam(params.get('endpoint'));
  const deleteId = idParam(params.get('delete'));
  const urlOf = (id: number) => endpoints?.find((endpoint) => endpoint.id === id)?.url;

  return (
    <div className="webhooks-screen">
      <div className="webhooks-toolbar">
        <H2>Webhooks</H2>
        <Button intent="primary" icon="add" text="Add endpoint" onClick={() => changeParams({ create: '1' })} />
      </div>
      {error && !endpoints ? (
        <Callout intent="danger" title="Webhooks could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !endpoints ? (
        <Spinner className="webhooks-state" />
      ) : endpoints.length === 0 ? (
        <NonIdealState className="webhooks-state" icon="send-to-graph" title="No webhook endpoints yet" description="An endpoint gets a signed POST whenever something it listens for happens: an order paid, a card opened, a product changed." />
      ) : (
        <WebhooksTable endpoints={endpoints} onShow={(id) => changeParams({ endpoint: String(id) })} onDelete={(id) => changeParams({ delete: String(id) })} />
      )}
      {params.get('create') === '1' && <CreateWebhookDialog onClose={() => changeParams({ create: null })} />}
      {shownId !== null && <WebhookDeliveriesDialog key={shownId} endpointId={shownId} url={urlOf(shownId)} onClose={() => changeParams({ endpoint: null })} />}
      {deleteId !== null && <DeleteWebhookAlert key={deleteId} id={deleteId} url={urlOf(deleteId)} onClose={() => changeParams({ delete: null })} />}
    </div>
  );
}
