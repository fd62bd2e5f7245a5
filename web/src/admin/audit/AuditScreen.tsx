import { useQuery } from '@apollo/client/react';
import { Button, Callout, H2, HTMLSelect, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { SortableHeader, type SortState } from '../../common/SortableHeader';
import { dateTime } from '../orders/order-format';
import { AuditActorsQuery, AuditLogQuery } from './audit-operations';
import { useUrlParams } from '../../common/url-params';
import './audit.css';
import { CursorPager, useCursorPages } from '../../common/CursorPager';

const PAGE = 50;

/** The kinds of things the log records, as the filter names them. */
const ENTITIES: { value: string; label: string; one: string }[] = [
  { value: 'category', label: 'Categories', one: 'Category' },
  { value: 'product', label: 'Products', one: 'Product' },
  { value: 'product-type', label: 'Product types', one: 'Product type' },
  { value: 'media-folder', label: 'Media folders', one: 'Media folder' },
  { value: 'media-file', label: 'Media files', one: 'Media file' },
  { value: 'blog-post', label: 'Blog posts', one: 'Blog post' },
  { value: 'settings', label: 'Settings', one: 'Settings' },
  { value: 'discount', label: 'Discounts', one: 'Discount' },
  { value: 'sale', label: 'Sales & promotions', one: 'Sale' },
  { value: 'gift-card', label: 'Gift cards', one: 'Gift card' },
  { value: 'membership', label: 'Memberships', one: 'Membership' },
  { value: 'order', label: 'Orders (refunds, resends, group cards)', one: 'Order' },
  { value: 'e-mail', label: 'E-mail', one: 'E-mail' },
  { value: 'staff', label: 'Staff', one: 'Staff' },
  { value: 'api-key', label: 'API keys', one: 'API key' },
  { value: 'webhook', label: 'Webhooks', one: 'Webhook' },
];
const ENTITY_ONE = new Map(ENTITIES.map((e) => [e.value, e.one]));

const ACTION_INTENT: Record<string, 'success' | 'danger' | 'primary' | 'warning' | 'none'> = { created: 'success', uploaded: 'success', invited: 'success', joined: 'success', deleted: 'danger', removed: 'danger', issued: 'success', voided: 'danger', adjusted: 'primary', refunded: 'warning', withdrawn: 'warning', 'signers invited': 'success', 'signature removed': 'danger' };

/**
 * Audit log: every change an admin or a member of staff made in the last year, newest (or oldest)
 * first, filtered by person and by kind of thing, paged with cursors. Filters live in the URL.
 */
export function AuditScreen() {
  const [params, changeParams] = useUrlParams();
  const actorId = Number(params.get('actor')) || null;
  const entity = params.get('entity') || null;
  const descending = params.get('order') !== 'oldest';
  const actors = useQuery(AuditActorsQuery, { fetchPolicy: 'cache-and-network' });
  // A second filter chosen before the screen caught up with the first keeps the first (useUrlParams).
  const set = (key: string, value: string | null) => changeParams({ [key]: value });

  return (
    <div className="audit-screen">
      <div className="audit-toolbar">
        <H2>Audit log</H2>
        <div className="audit-filters">
          <HTMLSelect aria-label="Person" value={actorId ?? ''} onChange={(event) => set('actor', event.currentTarget.value || null)} options={[{ value: '', label: 'Everyone' }, ...(actors.data?.auditActors ?? []).map((a) => ({ value: String(a.id), label: a.username }))]} />
          <HTMLSelect aria-label="What changed" value={entity ?? ''} onChange={(event) => set('entity', event.currentTarget.value || null)} options={[{ value: '', label: 'Everything' }, ...ENTITIES.map(({ value, label }) => ({ value, label }))]} />
        </div>
      </div>
      {/* A list of its own for each choice of filters (from its first page): an answer for filters
          chosen a moment ago never shows under the ones chosen now, however late it comes. */}
      <AuditEntries key={`${actorId ?? ''}|${entity ?? ''}|${descending}`} actorId={actorId} entity={entity} descending={descending} onSort={(oldest) => set('order', oldest ? 'oldest' : null)} />
    </div>
  );
}

/** The entries for one choice of filters, a page at a time. */
function AuditEntries({ actorId, entity, descending, onSort }: { actorId: number | null; entity: string | null; descending: boolean; onSort: (oldest: boolean) => void }) {
  const sort: SortState<'at'> = { key: 'at', descending };
  const pages = useCursorPages(PAGE);
  const { data, error, refetch } = useQuery(AuditLogQuery, { variables: { actorId, entity, oldestFirst: !descending, first: PAGE, after: pages.after }, fetchPolicy: 'cache-and-network' });
  const page = data?.auditLog;

  return error && !page ? (
    <Callout intent="danger" title="The audit log could not be loaded">
      <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
    </Callout>
  ) : !page ? (
    <Spinner className="audit-state" />
  ) : page.edges.length === 0 ? (
    <NonIdealState className="audit-state" icon="history" title="Nothing recorded" description={actorId || entity ? 'No change matches these filters.' : 'Changes made in the console appear here, kept for a year.'} />
  ) : (
    <>
      <div className="audit-table-wrap">
        <table className="bp6-html-table bp6-html-table-striped bp6-compact audit-table" aria-label="Audit log">
          <thead>
            <tr>
              <SortableHeader label="When" column="at" sort={sort} onSort={(next) => onSort(!next.descending)} firstDescending />
              <th>Who</th>
              <th>What</th>
              <th>Action</th>
              <th>Summary</th>
            </tr>
          </thead>
          <tbody>
            {page.edges.map(({ node }) => (
              <tr key={node.id}>
                <td className="audit-when">{dateTime(node.at)}</td>
                <td className="audit-who">
                  {node.actorName}
                  {node.actorRole !== 'admin' && <span className="muted"> ({node.actorRole})</span>}
                </td>
                <td className="audit-what">
                  {ENTITY_ONE.get(node.entity) ?? node.entity}
                  {node.entityId && <span className="muted audit-id"> #{node.entity === 'order' ? node.entityId.slice(0, 8).toUpperCase() : node.entityId}</span>}
                </td>
                <td>
                  <Tag minimal intent={ACTION_INTENT[node.action] ?? 'none'}>
                    {node.action}
                  </Tag>
                </td>
                <td className="audit-summary">{node.summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CursorPager pages={pages} shown={page.edges.length} page={page} />
    </>
  );
}
