import { HTMLTable } from '@blueprintjs/core';
import type { SalesSummaryQuery } from '../../apollo/generated/graphql';
import { dayRange, money } from './sales-format';

type Period = SalesSummaryQuery['salesSummary']['periods'][number];

/** The chart's figures as a table, a line per day or week (what the CSV holds). */
export function SalesPeriodsTable({ periods, caption }: { periods: Period[]; caption: string }) {
  return (
    <div className="sales-table-wrap">
      <HTMLTable compact striped className="sales-table sales-periods">
        <caption className="sales-sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col">Gross</th>
            <th scope="col">Refunds</th>
            <th scope="col">Net</th>
            <th scope="col">Orders</th>
            <th scope="col">Average</th>
            <th scope="col">Sent</th>
            <th scope="col">Opened</th>
          </tr>
        </thead>
        <tbody>
          {periods.map((p) => (
            <tr key={p.from}>
              <th scope="row">{dayRange(p.from, p.to)}</th>
              <td>{money(p.gross)}</td>
              <td>{money(p.refunds)}</td>
              <td>{money(p.net)}</td>
              <td>{p.orders}</td>
              <td>{money(p.averageOrder)}</td>
              <td>{p.cardsSent}</td>
              <td>{p.cardsOpened}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
