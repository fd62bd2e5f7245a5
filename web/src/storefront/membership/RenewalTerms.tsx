import { FormattedMessage } from 'react-intl';
import type { Plan } from './MembershipPlans';

/** Under the join button: how the membership renews, and what cancelling keeps. */
export function RenewalTerms({ plan }: { plan: Plan }) {
  return (
    <p className="muted membership-terms">
      <FormattedMessage
        id="membership.join.terms"
        defaultMessage="{period, select, YEAR {It renews every year on the same card until you cancel; cancelling keeps the benefits to the end of the period paid for.} other {It renews every month on the same card until you cancel; cancelling keeps the benefits to the end of the period paid for.}}"
        values={{ period: plan.period }}
      />
    </p>
  );
}
