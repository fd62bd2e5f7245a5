import { useQuery } from '@apollo/client/react';
import { Button, Callout, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { useUrlParams } from '../../common/url-params';
import { ApiKeysTable } from './ApiKeysTable';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';
import { RevokeApiKeyAlert } from './RevokeApiKeyAlert';
import { ApiKeysQuery } from './api-keys-operations';
import './api-keys.css';

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : null);

/**
 * API keys (contract section 19): the keys integrations sign their calls with, their scopes and last
 * use, "Create API key" (the key shown once) and Revoke. The dialogs live in the address
 * (`?create=1`, `?revoke=12`) so they survive a reload; a created key never does.
 */
export function ApiKeysScreen() {
  const [params, changeParams] = useUrlParams();
  const { data, error, refetch } = useQuery(ApiKeysQuery, { fetchPolicy: 'cache-and-network' });
  const keys = data?.apiKeys;
  const revokeId = idParam(params.get('revoke'));

  return (
    <div className="api-keys-screen">
      <div className="api-keys-toolbar">
        <H2>API keys</H2>
        <Button intent="primary" icon="add" text="Create API key" onClick={() => changeParams({ create: '1' })} />
      </div>
      {error && !keys ? (
        <Callout intent="danger" title="API keys could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !keys ? (
        <Spinner className="api-keys-state" />
      ) : keys.length === 0 ? (
        <NonIdealState className="api-keys-state" icon="key" title="No API keys yet" description="A key lets another service (fulfilment, accounting, a CRM) call the shop's API with the scopes you give it." />
      ) : (
        <ApiKeysTable keys={keys} onRevoke={(id) => changeParams({ revoke: String(id) })} />
      )}
      {params.get('create') === '1' && <CreateApiKeyDialog onClose={() => changeParams({ create: null })} />}
      {revokeId !== null && <RevokeApiKeyAlert key={revokeId} id={revokeId} name={keys?.find((key) => key.id === revokeId)?.name} onClose={() => changeParams({ revoke: null })} />}
    </div>
  );
}
