import { Button, Tag } from '@blueprintjs/core';
import type { SalesTable_SaleFragment } from '../../apollo/generated/graphql';
import { useCategoryOptions } from '../catalogue/category-options';
import { STATE_INTENT, STATE_LABEL, saleAmount, zonedDateTime } from './sale-format';

const plural = (count: number, one: string, many: string) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

/** What a sale is for: "3 products", the categories by their paths. */
function Covers({ sale, categoryLabel }: { sale: SalesTable_SaleFragment; categoryLabel: (id: number) => string }) {
  const parts = [
    ...(sale.productIds.length ? [plural(sale.productIds.length, 'product', 'products')] : []),
    ...sale.categoryIds.map(categoryLabel),
  ];
  return <>{parts.join(', ')}</>;
}

/** The sales, latest start first: name, what it takes off, what it covers, when, its state and how many products it prices now. */
export function SalesTable({ sales, timeZone, onEdit, onDelete }: { sales: SalesTable_SaleFragment[]; timeZone: string; onEdit: (id: number) => void; onDelete: (id: number) => void }) {
  const categories = useCategoryOptions();
  const labels = new Map(categories.map((option) => [option.id, option.label]));
  const categoryLabel = (id: number) => labels.get(id) ?? `Category ${id}`;
  return (
    <div className="promotions-table-wrap">
      <table className="bp6-html-table bp6-html-table-striped promotions-table" aria-label="Sales">
        <thead>
          <tr>
            <th>Name</th>
            <th>Discount</th>
            <th>For</th>
            <th>When</th>
            <th>State</th>
            <th className="promotions-number" title="Products whose price the sale sets now (where sales overlap, the lowest price wins)">
              Priced now
            </th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {sales.map((sale) => (
            <tr key={sale.id} data-sale-id={sale.id}>
              <td className="promotions-name">{sale.name}</td>
              <td className="promotions-amount" data-label="Discount">{saleAmount(sale)}</td>
              <td className="promotions-covers" data-label="For">
                <Covers sale={sale} categoryLabel={categoryLabel} />
              </td>
              <td className="promotions-when" data-label="When">
                <time dateTime={sale.startsAt}>{zonedDateTime(sale.startsAt, timeZone)}</time>
                {' – '}
                <time dateTime={sale.endsAt}>{zonedDateTime(sale.endsAt, timeZone)}</time>
              </td>
              <td className="promotions-state-cell" data-label="State">
                <Tag minimal intent={STATE_INTENT[sale.state]} icon={sale.state === 'RUNNING' ? 'time' : undefined}>
                  {STATE_LABEL[sale.state]}
                </Tag>
              </td>
              <td className="promotions-number promotions-priced" data-label="Priced now">
                {sale.state === 'RUNNING' ? sale.pricedProducts.toLocaleString() : '—'}
              </td>
              <td className="promotions-actions">
                <Button variant="minimal" icon="edit" aria-label={`Edit ${sale.name}`} title="Edit" onClick={() => onEdit(sale.id)} />
                <Button variant="minimal" icon="trash" intent="danger" aria-label={`Delete ${sale.name}`} title="Delete" onClick={() => onDelete(sale.id)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
