import { HTMLTable, Tag } from '@blueprintjs/core';
import type { SalesSummaryQuery } from '../../apollo/generated/graphql';
import { money } from './sales-format';

type Promotion = SalesSummaryQuery['salesSummary']['promotions'][number];

const KIND_LABEL: Record<Promotion['kind'], string> = { SALE: 'Sale', CODE: 'Code', AUTOMATIC: 'Automatic' };

/** Revenue, orders and savings per scheduled sale, discount code and automatic discount in the range. */
export function SalesPromotions({ promotions }: { promotions: Promotion[] }) {
  if (!promotions.length) return <p className="sales-muted">No orders used a sale or a discount in these days.</p>;
  return (
    <HTMLTable compact className="sales-table sales-promotions-table">
      <thead>
        <tr>
          <th scope="col">Promotion</th>
          <th scope="col">Orders</th>
          <th scope="col">Revenue</th>
          <th scope="col">Saved</th>
        </tr>
      </thead>
      <tbody>
        {promotions.map((p) => (
          <tr key={`${p.kind}:${p.name}`}>
            <th scope="row">
              <Tag minimal className="sales-promotion-kind">
                {KIND_LABEL[p.kind]}
              </Tag>{' '}
              {p.kind === 'CODE' ? <code>{p.name}</code> : p.name}
            </th>
            <td>{p.orders.toLocaleString('en-US')}</td>
            <td>{money(p.revenue)}</td>
            <td>{money(p.saved)}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
