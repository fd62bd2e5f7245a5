import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { orderNumber } from '@rules';
import { STATUS_INTENT, dateTime, money, statusLabel } from '../orders/order-format';
import { CustomerQuery } from './customers-operations';
import '../../common/cursor-pager.css';

/** A customer: their account, their figures, and their orders (newest first, a row opens it in Orders). */
export function CustomerDialog({ customerId, onClose, onOpenOrder }: { customerId: number | null; onClose: () => void; onOpenOrder: (orderId: string) => void }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const { data, error } = useQuery(CustomerQuery, { variables: { id: customerId ?? 0, after: cursors.at(-1) ?? null }, skip: customerId === null, fetchPolicy: 'cache-and-network' });
  const customer = data?.customer.id === customerId ? data?.customer : undefined;

  return (
    <Dialog isOpen={customerId !== null} onClose={onClose} title={customer ? customer.username : 'Customer'} icon="person" className="customer-dialog">
      <DialogBody>
        {error && !customer ? (
          <Callout intent="danger">This customer could not be loaded.</Callout>
        ) : !customer ? (
          <Spinner />
        ) : (
          <>
            <dl className="order-details-facts">
              <dt>E-mail</dt>
              <dd>
                {customer.email}{' '}
                {customer.confirmed ? (
                  <Tag minimal intent="success" icon="tick" title={customer.emailConfirmedAt ? `Confirmed ${dateTime(customer.emailConfirmedAt)}` : undefined}>
                    Confirmed
                  </Tag>
                ) : (
                  <Tag minimal>Not confirmed</Tag>
                )}
              </dd>
              <dt>Joined</dt>
              <dd>{dateTime(customer.createdAt)}</dd>
              <dt>Membership</dt>
              <dd>{customer.membership ?? 'Not a member'}</dd>
              <dt>Orders</dt>
              <dd>{customer.ordersCount}</dd>
              <dt>Total spent</dt>
              <dd>{money(customer.totalSpent)}</dd>
              <dt>Last order</dt>
              <dd>{customer.lastOrderAt ? dateTime(customer.lastOrderAt) : '—'}</dd>
            </dl>
            <h3 className="order-details-heading">Orders</h3>
            {customer.orders.edges.length === 0 ? (
              <NonIdealState icon="shopping-cart" title="No orders yet" className="customer-orders-empty" />
            ) : (
              <table className="bp6-html-table bp6-interactive bp6-compact customer-orders" aria-label="Orders of the customer">
                <thead>
                  <tr>
                    <th>Order</th>
                    <th>Status</th>
                    <th className="orders-number">Total</th>
                    <th>Date</th>
                  </tr>
                </thead>
                <tbody>
                  {customer.orders.edges.map(({ node }) => (
                    <tr key={node.id} tabIndex={0} onClick={() => onOpenOrder(node.id)} onKeyDown={(event) => event.key === 'Enter' && onOpenOrder(node.id)}>
                      <td className="orders-id" title={node.id}>
                        {orderNumber(node.id)}
                      </td>
                      <td>
                        <Tag minimal intent={STATUS_INTENT[node.status]}>
                          {statusLabel(node.status)}
                        </Tag>
                      </td>
                      <td className="orders-number">
                        {money(node.total)}
                        {Number(node.refundedAmount) > 0 && <span className="muted"> ({money(node.refundedAmount)} refunded)</span>}
                      </td>
                      <td>{dateTime(node.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {(cursors.length > 1 || customer.orders.pageInfo.hasNextPage) && (
              <div className="cursor-pager">
                <Button icon="chevron-left" aria-label="Newer orders" disabled={cursors.length === 1} onClick={() => setCursors((list) => list.slice(0, -1))} />
                <Button icon="chevron-right" aria-label="Older orders" disabled={!customer.orders.pageInfo.hasNextPage} onClick={() => setCursors((list) => [...list, customer.orders.pageInfo.endCursor])} />
              </div>
            )}
          </>
        )}
      </DialogBody>
      <DialogFooter actions={<Button text="Close" onClick={onClose} />} />
    </Dialog>
  );
}
