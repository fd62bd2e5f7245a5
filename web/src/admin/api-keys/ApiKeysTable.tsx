import { Button, HTMLTable, Tag } from '@blueprintjs/core';
import type { ApiKeysTable_ApiKeyFragment } from '../../apollo/generated/graphql';
import { dateTime } from '../orders/order-format';

const when = (value: string | null | undefined) => (value ? dateTime(value) : '—');

/** The keys, newest first: name, scopes, the key's last characters, who made it, last use, and Revoke while it works. */
export function ApiKeysTable({ keys, onRevoke }: { keys: ApiKeysTable_ApiKeyFragment[]; onRevoke: (id: number) => void }) {
  return (
    <HTMLTable className="api-keys-table" striped interactive={false}>
      <thead>
        <tr>
          <th>Name</th>
          <th>Scopes</th>
          <th>Key</th>
          <th>Created</th>
          <th>Last used</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id} className={key.revokedAt ? 'api-key-revoked' : undefined}>
            <td className="api-key-name-cell">{key.name}</td>
            <td className="api-key-scopes-cell">
              {key.scopes.map((scope) => (
                <Tag key={scope} minimal className="api-key-scope">
                  {scope}
                </Tag>
              ))}
            </td>
            <td data-label="Key">
              <code>ask_…{key.last4}</code>
            </td>
            <td data-label="Created">
              {when(key.createdAt)}
              {key.createdBy && <span className="muted"> by {key.createdBy}</span>}
            </td>
            <td data-label="Last used">{when(key.lastUsedAt)}</td>
            <td className="api-key-actions">{key.revokedAt ? <Tag intent="danger" minimal title={`Revoked ${when(key.revokedAt)}`}>Revoked</Tag> : <Button size="small" intent="danger" variant="minimal" icon="disable" text="Revoke" aria-label={`Revoke ${key.name}`} onClick={() => onRevoke(key.id)} />}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
