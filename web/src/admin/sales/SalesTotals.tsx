import { Card, Classes } from '@blueprintjs/core';
import type { SalesSummaryQuery } from '../../apollo/generated/graphql';
import { changeView, money } from './sales-format';

type Totals = SalesSummaryQuery['salesSummary']['totals'];
type Figure = { value: string | number; previous: string | number; change?: number | null };

/** The totals in the order the contract names them, each as shown; refunds going up is bad news. */
const TOTALS: { key: keyof Omit<Totals, '__typename'>; label: string; amount: boolean; upIsBad?: boolean }[] = [
  { key: 'gross', label: 'Gross', amount: true },
  { key: 'refunds', label: 'Refunds', amount: true, upIsBad: true },
  { key: 'net', label: 'Net', amount: true },
  { key: 'orders', label: 'Orders', amount: false },
  { key: 'averageOrder', label: 'Average order', amount: true },
  { key: 'cardsSent', label: 'Cards sent', amount: false },
  { key: 'cardsOpened', label: 'Cards opened', amount: false },
];

/** A card per total: its value, and how it moved from the previous range of the same length. */
export function SalesTotals({ totals, dayCount }: { totals: Totals; dayCount: number }) {
  return (
    <div className="sales-totals">
      {TOTALS.map(({ key, label, amount, upIsBad }) => {
        const figure = totals[key] as Figure;
        const show = (v: string | number) => (amount ? money(v) : Number(v).toLocaleString('en-US'));
        const change = changeView(figure.change ?? null, Number(figure.value), Number(figure.previous), dayCount, upIsBad);
        return (
          <Card key={key} className="sales-total" aria-label={label}>
            <div className="sales-total-label">{label}</div>
            <div className="sales-total-value">{show(figure.value)}</div>
            <div className="sales-total-change">
              <span className={`sales-change sales-change-${change.intent}`} aria-hidden="true">
                {change.text}
              </span>
              <span className={Classes.TEXT_MUTED} aria-hidden="true">
                was {show(figure.previous)}
              </span>
              <span className="sales-sr-only">
                {change.spoken}, was {show(figure.previous)}
              </span>
            </div>
          </Card>
        );
      })}
    </div>
  );
}
