import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Card, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { dayIn } from '@rules';
import { SalesChart } from './SalesChart';
import { SalesCsvButton } from './SalesCsvButton';
import { SalesPeriodsTable } from './SalesPeriodsTable';
import { SalesRangeBar } from './SalesRangeBar';
import { SalesPromotions } from './SalesPromotions';
import { SalesMemberships } from './SalesMemberships';
import { SalesTopProducts } from './SalesTopProducts';
import { SalesTotals } from './SalesTotals';
import { dayRange } from './sales-format';
import { SalesSummaryQuery } from './sales-operations';
import { browserTimeZone, useSalesView } from './sales-url';
import './sales.css';

/**
 * Sales (contract section 16): a range of days in the admin's time zone, its totals each beside the
 * range of the same length before it, net revenue as bars by day or by week (or as a table), the top
 * products, and the range's CSV. The range and the bars live in the address, so a reload keeps them.
 */
export default function SalesScreen() {
  const [view, change] = useSalesView();
  const [asTable, setAsTable] = useState(false);
  const timeZone = browserTimeZone();
  const today = dayIn(new Date(), timeZone);
  const range = view.choice.kind === 'last' ? { days: view.choice.days } : { from: view.choice.from, to: view.choice.to };
  const { data, previousData, error, loading, refetch } = useQuery(SalesSummaryQuery, {
    variables: { timeZone, ...range, bucket: view.bucket },
    skip: view.problem !== null,
    fetchPolicy: 'cache-and-network',
  });
  // While another range loads, the one before stays on screen (dimmed) rather than a spinner.
  const summary = (data ?? previousData)?.salesSummary;
  const csvQuery = new URLSearchParams({ ...Object.fromEntries(Object.entries(range).map(([k, v]) => [k, String(v)])), by: view.bucket.toLowerCase(), time_zone: timeZone });
  const unit = summary?.bucket === 'WEEK' ? 'week' : 'day';
  const quiet = summary && summary.totals.orders.value === 0 && summary.totals.cardsSent.value === 0 && summary.totals.cardsOpened.value === 0;

  return (
    <div className="sales-screen">
      <div className="sales-toolbar">
        <H2>Sales</H2>
        {loading && summary && <Spinner size={18} aria-label="Loading" />}
        <span className="sales-toolbar-end">
          <SalesCsvButton query={csvQuery} disabled={view.problem !== null} />
          <Button variant="minimal" icon="refresh" aria-label="Refresh" title="Refresh" onClick={() => void refetch()} />
        </span>
      </div>
      <SalesRangeBar choice={view.choice} bucket={view.bucket} problem={view.problem} today={today} shown={summary ?? null} onChange={change} />
      {view.problem ? null : error && !summary ? (
        <Callout intent="danger" title="Sales could not be loaded">
          <p>{error.message}</p>
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !summary ? (
        <Spinner className="sales-state" aria-label="Loading sales" />
      ) : (
        <div className={loading ? 'sales-body sales-stale' : 'sales-body'} aria-busy={loading}>
          <p className="sales-muted sales-range-label">
            <span data-testid="sales-range">{dayRange(summary.from, summary.to)}</span> ({summary.dayCount === 1 ? '1 day' : `${summary.dayCount} days`}, {summary.timeZone}), compared with {dayRange(summary.previousFrom, summary.previousTo)}
          </p>
          <SalesTotals totals={summary.totals} dayCount={summary.dayCount} />
          <div className="sales-panels">
            <Card className="sales-chart" aria-labelledby="sales-chart-title">
              <div className="sales-card-head">
                <h3 id="sales-chart-title">Net revenue by {unit}</h3>
                <Button variant="minimal" size="small" icon={asTable ? 'timeline-bar-chart' : 'th'} text={asTable ? 'Show bars' : 'Show table'} aria-pressed={asTable} onClick={() => setAsTable(!asTable)} />
              </div>
              {quiet ? (
                <NonIdealState className="sales-empty" icon="timeline-bar-chart" title="No sales in these days" description="Orders placed and cards sent in the range show here." />
              ) : asTable ? (
                <SalesPeriodsTable periods={summary.periods} caption={`Sales by ${unit}`} />
              ) : (
                <SalesChart periods={summary.periods} bucket={summary.bucket} />
              )}
            </Card>
            <Card className="sales-top" aria-labelledby="sales-top-title">
              <h3 id="sales-top-title">Top products</h3>
              <SalesTopProducts products={summary.topProducts} />
            </Card>
            <Card className="sales-top sales-promotions" aria-labelledby="sales-promotions-title">
              <h3 id="sales-promotions-title">Promotions</h3>
              <SalesPromotions promotions={summary.promotions} />
            </Card>
            <SalesMemberships from={summary.from} to={summary.to} timeZone={summary.timeZone} />
          </div>
        </div>
      )}
    </div>
  );
}
