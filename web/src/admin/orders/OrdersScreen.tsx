import { useEffect, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { ORDERS_COUNTED_UP_TO } from '@rules';
import { Button, Callout, Checkbox, H2, HTMLSelect, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { OrderStatus } from '../../apollo/generated/graphql';
import { useDebounced } from '../../storefront/common/use-debounced';
import { OrderDetailsDialog } from './OrderDetailsDialog';
import { ExportCsvButton } from './ExportCsvButton';
import { STATUS_INTENT, dateTime, money, statusLabel } from './order-format';
import { AdminOrdersQuery } from './orders-operations';
import { useUrlParams } from '../../common/url-params';
import './orders.css';
import '../../common/cursor-pager.css';

/** The page sizes of the table; "all" asks for as many as the server gives in one page. */
const PAGE_SIZES = ['10', '25', '50', '100', 'all'] as const;
const ALL = 1000;
const STATUSES: OrderStatus[] = ['PAID', 'DELIVERED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CANCELLED', 'PENDING'];

/**
 * Orders: 'Search Orders' searches on every input (debounced, on the server), the table pages with
 * cursors, and a row opens 'Order Details'. The search, the page size and the open order live in the URL.
 */
export function OrdersScreen() {
  const [params, changeParams] = useUrlParams();
  const [text, setText] = useState(params.get('search') ?? '');
  const search = useDebounced(text.trim(), 250);
  const size = (PAGE_SIZES as readonly string[]).includes(params.get('size') ?? '') ? (params.get('size') as (typeof PAGE_SIZES)[number]) : '10';
  const first = size === 'all' ? ALL : Number(size);
  const openId = params.get('order');
  // The filters (contract section 16), in the address like the search.
  const status = (STATUSES as string[]).includes(params.get('status') ?? '') ? (params.get('status') as OrderStatus) : null;
  const from = params.get('from') || null;
  const to = params.get('to') || null;
  const failedEmail = params.get('failed_email') === '1' ? true : null;
  const group = params.get('group') === '1' ? true : null;
  // Cursors of the pages before this one, for "Previous".
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;

  const setParam = (key: string, value: string | null) => changeParams({ [key]: value });

  useEffect(() => {
    setCursors([null]);
    changeParams({ search }, { replace: true });
  }, [search, first, status, from, to, failedEmail, group, changeParams]);

  const { data, error, loading, refetch } = useQuery(AdminOrdersQuery, { variables: { search: search || null, status, from, to, failedEmail, group, first, after }, fetchPolicy: 'cache-and-network' });
  useEffect(() => {
    if (error) console.error('Network response was not ok', error);
  }, [error]);

  const page = data?.orders;
  const start = (cursors.length - 1) * first;

  return (
    <div className="orders-screen">
      <div className="orders-toolbar">
        <H2>Orders</H2>
        <InputGroup
          className="orders-search"
          type="search"
          leftIcon="search"
          placeholder="Search Orders"
          aria-label="Search Orders"
          value={text}
          onValueChange={setText}
          rightElement={loading ? <Spinner size={16} className="orders-search-spinner" /> : undefined}
        />
        <ExportCsvButton search={search} />
      </div>
      <div className="orders-filters">
        <HTMLSelect aria-label="Status" value={status ?? ''} onChange={(event) => setParam('status', event.currentTarget.value || null)} options={[{ value: '', label: 'Any status' }, ...STATUSES.map((value) => ({ value, label: statusLabel(value) }))]} />
        <label>
          From <input className="bp6-input" type="date" aria-label="From" value={from ?? ''} max={to ?? undefined} onChange={(event) => setParam('from', event.currentTarget.value || null)} />
        </label>
        <label>
          To <input className="bp6-input" type="date" aria-label="To" value={to ?? ''} min={from ?? undefined} onChange={(event) => setParam('to', event.currentTarget.value || null)} />
        </label>
        <Checkbox label="Failed e-mail" checked={failedEmail === true} onChange={(event) => setParam('failed_email', event.currentTarget.checked ? '1' : null)} />
        <Checkbox label="Group cards" checked={group === true} onChange={(event) => setParam('group', event.currentTarget.checked ? '1' : null)} />
      </div>
      {error && !page ? (
        <Callout intent="danger" title="Orders could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !page ? (
        <Spinner className="orders-state" />
      ) : page.edges.length === 0 ? (
        <NonIdealState className="orders-state" icon="shopping-cart" title={search ? `No orders match “${search}”` : status || from || to || failedEmail || group ? 'No orders match these filters' : 'No orders yet'} />
      ) : (
        <>
          <div className="orders-table-wrap">
            <table className="bp6-html-table bp6-interactive bp6-html-table-striped orders-table">
              <thead>
                <tr>
                  <th>Order ID</th>
                  <th>Customer</th>
                  <th>Status</th>
                  <th className="orders-number">Total</th>
                  <th>Date</th>
                </tr>
              </thead>
              <tbody>
                {page.edges.map(({ node }) => (
                  <tr
                    key={node.id}
                    tabIndex={0}
                    onClick={() => setParam('order', node.id)}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter' || event.key === ' ') {
                        event.preventDefault();
                        setParam('order', node.id);
                      }
                    }}
                  >
                    <td className="orders-id" title={node.id}>
                      {node.number}
                    </td>
                    <td>{node.purchaserEmail}</td>
                    <td>
                      <Tag minimal intent={STATUS_INTENT[node.status]}>
                        {statusLabel(node.status)}
                      </Tag>
                    </td>
                    <td className="orders-number">{money(node.total)}</td>
                    <td>{dateTime(node.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="cursor-pager">
            <label className="orders-size">
              Rows per page{' '}
              <HTMLSelect aria-label="Rows per page" value={size} onChange={(event) => setParam('size', event.currentTarget.value === '10' ? null : event.currentTarget.value)} options={PAGE_SIZES.map((value) => ({ value, label: value === 'all' ? 'All' : value }))} />
            </label>
            <span className="orders-range" aria-live="polite">
              {start + 1}–{start + page.edges.length} of {page.totalCount > ORDERS_COUNTED_UP_TO ? `more than ${ORDERS_COUNTED_UP_TO.toLocaleString()}` : page.totalCount.toLocaleString()}
              {size === 'all' && page.pageInfo.hasNextPage ? ` (at most ${ALL.toLocaleString()} at a time)` : ''}
            </span>
            <Button icon="chevron-left" aria-label="Previous page" disabled={cursors.length === 1} onClick={() => setCursors((list) => list.slice(0, -1))} />
            <Button icon="chevron-right" aria-label="Next page" disabled={!page.pageInfo.hasNextPage} onClick={() => setCursors((list) => [...list, page.pageInfo.endCursor])} />
          </div>
        </>
      )}
      <OrderDetailsDialog orderId={openId} onClose={() => setParam('order', null)} />
    </div>
  );
}
