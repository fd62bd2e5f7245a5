import { useQuery } from '@apollo/client/react';
import { Card, Classes } from '@blueprintjs/core';
import { startOfDay } from '@rules';
import { graphql } from '../../apollo/generated';
import { money } from './sales-format';

export const MembershipFiguresQuery = graphql(`
  query MembershipFigures($from: DateTimeISO!, $to: DateTimeISO!) {
    membershipFigures(from: $from, to: $to) {
      activeMembers
      newMembers
      endedMembers
      monthlyRecurringRevenue
    }
  }
`);

/** The day after a day (YYYY-MM-DD). */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Memberships beside the sales of a range of days: members now, joined and ended in the range, and what renewals bring a month. */
export function SalesMemberships({ from, to, timeZone }: { from: string; to: string; timeZone: string }) {
  const { data } = useQuery(MembershipFiguresQuery, { variables: { from: startOfDay(from, timeZone).toISOString(), to: startOfDay(dayAfter(to), timeZone).toISOString() }, fetchPolicy: 'cache-and-network' });
  const figures = data?.membershipFigures;
  const rows: [string, string][] = figures
    ? [
        ['Members now', figures.activeMembers.toLocaleString('en-US')],
        ['Joined in these days', figures.newMembers.toLocaleString('en-US')],
        ['Ended in these days', figures.endedMembers.toLocaleString('en-US')],
        ['Monthly recurring revenue', money(figures.monthlyRecurringRevenue)],
      ]
    : [];
  return (
    <Card className="sales-top sales-memberships" aria-labelledby="sales-memberships-title">
      <h3 id="sales-memberships-title">Memberships</h3>
      {figures ? (
        <dl className="sales-memberships-figures">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt className={Classes.TEXT_MUTED}>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className={Classes.TEXT_MUTED}>Loading…</p>
      )}
    </Card>
  );
}
