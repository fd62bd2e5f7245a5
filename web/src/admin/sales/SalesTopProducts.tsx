import { HTMLTable } from '@blueprintjs/core';
import type { SalesSummaryQuery } from '../../apollo/generated/graphql';
import { money } from './sales-format';

type Product = SalesSummaryQuery['salesSummary']['topProducts'][number];

/** The 10 products with the most net revenue in the range. */
export function SalesTopProducts({ products }: { products: Product[] }) {
  if (!products.length) return <p className="sales-muted">No products sold in these days.</p>;
  return (
    <HTMLTable compact className="sales-table sales-top-table">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Product</th>
          <th scope="col">Units</th>
          <th scope="col">Revenue</th>
        </tr>
      </thead>
      <tbody>
        {products.map((p, i) => (
          <tr key={p.productId ?? `name:${p.name}`}>
            <td>{i + 1}</td>
            <th scope="row">
              {p.name}
              {p.productId === null && <span className="sales-muted"> (deleted)</span>}
            </th>
            <td>{p.units.toLocaleString('en-US')}</td>
            <td>{money(p.revenue)}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
