import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, H2, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { CustomerSort } from '../../apollo/generated/graphql';
import { SortableHeader, type SortState } from '../../common/SortableHeader';
import { CursorPager, useCursorPages } from '../../common/CursorPager';
import { useDebounced } from '../../storefront/common/use-debounced';
import { dateTime, money } from '../orders/order-format';
import { CustomerDialog } from './CustomerDialog';
import { CustomersQuery } from './customers-operations';
import '../orders/orders.css';
import './customers.css';

const PAGE = 25;
const SORTS: CustomerSort[] = ['NEWEST', 'NAME', 'EMAIL', 'ORDERS', 'SPENT', 'LAST_ORDER'];
/** Names and e-mails read A to Z first; figures and dates largest or newest first. */
const FIRST_DESCENDING: Record<CustomerSort, boolean> = { NEWEST: true, NAME: false, EMAIL: false, ORDERS: true, SPENT: true, LAST_ORDER: true };

/**
 * Customers: the shoppers' accounts, searched by name or e-mail on the server, sorted by any column
 * (each through an index, so a page stays fast at any size) and paged with cursors. A row opens the
 * customer with their orders. Search, sort and the open customer live in the URL.
 */
export function CustomersScreen() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('search') ?? '');
  const search = useDebounced(text.trim(), 250);
  const sortKey = (SORTS as string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as CustomerSort) : 'NEWEST';
  const sort: SortState<CustomerSort> = { key: sortKey, descending: params.has('dir') ? params.get('dir') === 'desc' : FIRST_DESCENDING[sortKey] };
  const openId = Number(params.get('customer')) || null;
  const pages = useCursorPages(PAGE);

  const update = (patch: Record<string, string | null>, replace = false) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace },
    );

  useEffect(() => {
    pages.reset();
    update({ search: search || null }, true);
  }, [search, sort.key, sort.descending]);

  const { data, error, loading, refetch } = useQuery(CustomersQuery, { variables: { search: search || null, sort: sort.key, descending: sort.descending, first: PAGE, after: pages.after }, fetchPolicy: 'cache-and-network' });
  const page = data?.customers;
  const onSort = (next: SortState<CustomerSort>) => update({ sort: next.key === 'NEWEST' ? null : next.key, dir: next.descending === FIRST_DESCENDING[next.key] ? null : next.descending ? 'desc' : 'asc' });
  const header = (label: string, column: CustomerSort, numeric = false) => <SortableHeader label={label} column={column} sort={sort} onSort={onSort} numeric={numeric} firstDescending={FIRST_DESCENDING[column]} />;

  return (
    <div className="customers-screen">
      <div className="customers-toolbar">
        <H2>Customers</H2>
        <InputGroup
          className="customers-search"
          type="search"
          leftIcon="search"
          placeholder="Search by name or e-mail"
          aria-label="Search customers"
          value={text}
          onValueChange={setText}
          rightElement={loading ? <Spinner size={16} className="customers-search-spinner" /> : undefined}
        />
      </div>
      {error && !page ? (
        <Callout intent="danger" title="Customers could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !page ? (
        <Spinner className="customers-state" />
      ) : page.edges.length === 0 ? (
        <NonIdealState className="customers-state" icon="people" title={search ? `No customers match “${search}”` : 'No customers yet'} description={search ? undefined : 'Shoppers who create an account appear here.'} />
      ) : (
        <>
          <div className="customers-table-wrap">
            <table className="bp6-html-table bp6-interactive bp6-html-table-striped customers-table" aria-label="Customers">
              <thead>
                <tr>
                  {header('Customer', 'NAME')}
                  {header('E-mail', 'EMAIL')}
                  <th>Confirmed</th>
                  {header('Orders', 'ORDERS', true)}
                  {header('Total spent', 'SPENT', true)}
                  {header('Last order', 'LAST_ORDER')}
                  {header('Joined', 'NEWEST')}
                </tr>
              </thead>
              <tbody>
                {page.edges.map(({ node }) => (
                  <tr
                    key={node.id}
                    tabIndex={0}
                    onClick={() => update({ customer: String(node.id) })}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter' || event.key === ' ') {
                        event.preventDefault();
                        update({ customer: String(node.id) });
                      }
                    }}
                  >
                    <td className="customers-name">
                      {node.username}
                      {node.membership && (
                        <Tag minimal intent="primary" className="customers-member" title={`Member: ${node.membership}`}>
                          Member
                        </Tag>
                      )}
                    </td>
                    <td>{node.email}</td>
                    <td>{node.confirmed ? <Tag minimal intent="success" icon="tick">Confirmed</Tag> : <Tag minimal>Not confirmed</Tag>}</td>
                    <td className="orders-number">{node.ordersCount}</td>
                    <td className="orders-number">{money(node.totalSpent)}</td>
                    <td>{node.lastOrderAt ? dateTime(node.lastOrderAt) : <span className="muted">—</span>}</td>
                    <td>{dateTime(node.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <CursorPager pages={pages} shown={page.edges.length} page={page} />
        </>
      )}
      <CustomerDialog customerId={openId} onClose={() => update({ customer: null })} onOpenOrder={(id) => setParams({ view: 'orders', order: id })} />
    </div>
  );
}
