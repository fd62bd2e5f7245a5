import { useQuery } from '@apollo/client/react';
import { Button, Callout, Card, H2, Spinner } from '@blueprintjs/core';
import { money } from '../orders/order-format';
import { SalesChart } from './SalesChart';
import { SalesSummaryQuery } from './sales-operations';
import './sales.css';

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Sales at a glance: the totals of the last 30 days and revenue and orders per day. */
export default function SalesScreen() {
  const { data, error, refetch } = useQuery(SalesSummaryQuery, { variables: { timeZone: timeZone() }, fetchPolicy: 'cache-and-network' });
  const summary = data?.salesSummary;
  const totals = summary
    ? [
        { label: 'Revenue', value: money(summary.revenue) },
        { label: 'Orders', value: summary.orders.toLocaleString() },
        { label: 'Cards sent', value: summary.cardsSent.toLocaleString() },
        { label: 'Cards opened', value: summary.cardsOpened.toLocaleString() },
      ]
    : [];
  return (
    <div className="sales-screen">
      <div className="sales-toolbar">
        <H2>Sales</H2>
        <span className="muted">Last 30 days</span>
        <Button variant="minimal" icon="refresh" aria-label="Refresh" title="Refresh" onClick={() => void refetch()} />
      </div>
      {error && !summary ? (
        <Callout intent="danger" title="Sales could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !summary ? (
        <Spinner className="sales-state" />
      ) : (
        <>
          <div className="sales-totals">
            {totals.map((total) => (
              <Card key={total.label} className="sales-total" aria-label={total.label}>
                <div className="sales-total-label">{total.label}</div>
                <div className="sales-total-value">{total.value}</div>
              </Card>
            ))}
          </div>
          <Card className="sales-chart" aria-label="Revenue and orders per day">
            <h3>Revenue and orders per day</h3>
            <SalesChart points={summary.days.map((d) => ({ day: d.day, revenue: Number(d.revenue), orders: d.orders }))} />
          </Card>
        </>
      )}
    </div>
  );
}
