import { Tag } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import type { MembershipPage_MembershipFragment } from '../../apollo/generated/graphql';
import { formatPrice } from '../common/price';
import { longDate, mediumDate } from '../common/dates';

type Charge = MembershipPage_MembershipFragment['charges'][number];

const shortDate = mediumDate;

/** The membership's payments, newest first: when, the period it paid for, the amount, and paid or failed (with the reason). */
export function MembershipCharges({ charges }: { charges: readonly Charge[] }) {
  return (
    <section className="membership-charges" aria-labelledby="membership-charges-title">
      <h2 id="membership-charges-title">
        <FormattedMessage id="membership.charges.title" defaultMessage="Payment history" />
      </h2>
      <table className="bp6-html-table bp6-compact membership-charges-table" aria-labelledby="membership-charges-title">
        <thead>
          <tr>
            <th>
              <FormattedMessage id="membership.charges.date" defaultMessage="Date" />
            </th>
            <th>
              <FormattedMessage id="membership.charges.period" defaultMessage="Period" />
            </th>
            <th className="membership-number">
              <FormattedMessage id="membership.charges.amount" defaultMessage="Amount" />
            </th>
            <th>
              <FormattedMessage id="membership.charges.status" defaultMessage="Status" />
            </th>
          </tr>
        </thead>
        <tbody>
          {charges.map((charge) => (
            <tr key={charge.id} data-status={charge.status}>
              <td className="membership-charge-date">{longDate(charge.createdAt)}</td>
              <td className="membership-charge-period">
                {shortDate(charge.periodStart)} – {shortDate(charge.periodEnd)}
              </td>
              <td className="membership-number membership-charge-amount">{formatPrice(charge.amount)}</td>
              <td className="membership-charge-status">
                <Tag minimal intent={charge.status === 'paid' ? 'success' : 'danger'}>
                  {charge.status === 'paid' ? <FormattedMessage id="membership.charges.paid" defaultMessage="Paid" /> : <FormattedMessage id="membership.charges.failed" defaultMessage="Failed" />}
                </Tag>
                {charge.message && <span className="muted membership-charge-message">{charge.message}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
