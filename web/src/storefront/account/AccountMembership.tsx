import { Link } from 'react-router-dom';
import { FormattedMessage } from 'react-intl';
import { useQuery } from '@apollo/client/react';
import { Card, Tag } from '@blueprintjs/core';
import { membershipState, planPrice } from '../membership/membership-format';
import { AccountMembershipQuery } from './account-operations';

/** My orders' "Membership": the plan and what happens next ("Renews on …"), or "Not a member"; its page for the rest. */
export function AccountMembership() {
  const { data } = useQuery(AccountMembershipQuery, { fetchPolicy: 'cache-and-network' });
  // Quiet until known: the orders are what the page is for.
  if (!data) return null;
  const membership = data.myMembership;
  const state = membership && membershipState(membership);
  return (
    <Card className="account-membership" role="region" aria-labelledby="account-membership-title">
      <h2 id="account-membership-title">
        <FormattedMessage id="account.membership.title" defaultMessage="Membership" />
      </h2>
      {membership && state?.current ? (
        <p className="account-membership-plan">
          <strong>{membership.plan.name}</strong>
          <span className="muted">{planPrice(membership.plan)}</span>
          <Tag minimal round intent={state.intent}>
            {state.label}
          </Tag>
          <span>{state.line}</span>
        </p>
      ) : (
        <p className="account-membership-plan">
          <FormattedMessage id="account.membership.none" defaultMessage="Not a member: e-cards included and a saving on albums and collections." />
        </p>
      )}
      <Link to="/membership">
        {membership && state?.current ? <FormattedMessage id="account.membership.details" defaultMessage="Membership details" /> : <FormattedMessage id="account.membership.plans" defaultMessage="See the plans" />}
      </Link>
    </Card>
  );
}
