import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Spinner } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorMessage } from '../../apollo/errors';
import { useAuth } from '../../auth/auth-store';
import { EmptyState } from '../../common/EmptyState';
import { GiftMembershipSection } from './GiftMembershipSection';
import { MembershipCharges } from './MembershipCharges';
import { MembershipJoinForm } from './MembershipJoinForm';
import { MembershipPlans } from './MembershipPlans';
import { MembershipSummary } from './MembershipSummary';
import { TitledCallout } from './TitledCallout';
import { JOIN_FAILURE_TEXTS } from './join-failure';
import { longDate, membershipState } from './membership-format';
import { MembershipPlansQuery, MyMembershipQuery } from './membership-operations';
import '../common/storefront.css';
import './membership.css';

/**
 * /membership (contract section 18): the plans offered, with what each includes. A visitor is asked
 * to sign in; a signed-in shopper picks a plan and pays with a card; a member sees the membership
 * (where it stands, the card, Cancel or Resume) and its payments. A member whose renewal was declined
 * sees it said, and the plans and the card form to pay again. A membership whose first payment Stripe
 * has not confirmed yet gives nothing: the page says so and offers the payment again.
 */
export default function MembershipPage() {
  const intl = useIntl();
  const auth = useAuth();
  const signedIn = auth.user !== null;
  const plans = useQuery(MembershipPlansQuery, { fetchPolicy: 'cache-and-network' });
  const mine = useQuery(MyMembershipQuery, { skip: !signedIn, fetchPolicy: 'cache-and-network' });
  const [chosen, setChosen] = useState<number | null>(null);
  const membership = signedIn ? (mine.data?.myMembership ?? null) : null;
  const state = membership && membershipState(membership);
  const offered = plans.data?.membershipPlans;
  // The plan chosen, else the one the member had, else the cheapest.
  const plan = offered?.find((p) => p.id === chosen) ?? offered?.find((p) => p.id === membership?.plan.id) ?? offered?.[0];
  const joining = !state?.current || membership?.status === 'PAST_DUE';
  const started = membership?.status === 'INCOMPLETE';

  let join: ReactNode;
  if (plans.error && !offered) {
    join = (
      <TitledCallout intent="danger" title={intl.formatMessage({ id: 'membership.page.plansFailed', defaultMessage: 'The plans could not be loaded' })}>
        <Button text={intl.formatMessage({ id: 'membership.page.tryAgain', defaultMessage: 'Try again' })} icon="refresh" onClick={() => void plans.refetch()} />
      </TitledCallout>
    );
  } else if (!offered) {
    join = <Spinner className="membership-state" />;
  } else if (!offered.length || !plan) {
    join = (
      <EmptyState
        className="membership-state"
        icon="people"
        title={intl.formatMessage({ id: 'membership.page.noPlans.title', defaultMessage: 'No plans are offered at the moment' })}
        description={intl.formatMessage({ id: 'membership.page.noPlans.text', defaultMessage: 'Please come back later.' })}
      />
    );
  } else if (!signedIn) {
    join = (
      <>
        <MembershipPlans plans={offered} labelledBy="membership-join-title" />
        <div className="membership-sign-in">
          <Link to="/login" state={{ from: '/membership' }} className="bp6-button bp6-intent-primary bp6-large">
            <FormattedMessage id="membership.page.signIn" defaultMessage="Sign in to become a member" />
          </Link>
          <span className="muted">
            <FormattedMessage id="membership.page.newHere" defaultMessage="New here? Create an account on the same page." />
          </span>
        </div>
      </>
    );
  } else {
    join = (
      <>
        <MembershipPlans plans={offered} selected={plan.id} onSelect={setChosen} labelledBy="membership-join-title" />
        <MembershipJoinForm plan={plan} onPlansChanged={() => void plans.refetch()} />
      </>
    );
  }

  return (
    <div className="store-page membership-page">
      <h1>
        <FormattedMessage id="membership.page.title" defaultMessage="Membership" />
      </h1>
      <p className="membership-lede">
        <FormattedMessage
          id="membership.page.lede"
          defaultMessage="E-cards included and a saving on albums and collections, for as long as you are a member. Cancel whenever you like: the benefits last to the end of the period paid for."
        />
      </p>
      {signedIn && mine.error && !mine.data ? (
        <TitledCallout intent="danger" title={intl.formatMessage({ id: 'membership.page.mineFailed', defaultMessage: 'Your membership could not be loaded' })} level={2}>
          {errorMessage(mine.error, intl.formatMessage(JOIN_FAILURE_TEXTS.retry))}
        </TitledCallout>
      ) : signedIn && !mine.data ? (
        <Spinner className="membership-state" />
      ) : (
        <>
          {membership && state?.current && <MembershipSummary membership={membership} />}
          {membership && started && (
            <TitledCallout intent="primary" icon="time" title={intl.formatMessage({ id: 'membership.page.started.title', defaultMessage: 'Your {plan} membership is not paid yet' }, { plan: membership.plan.name })} level={2} className="membership-started" role="status">
              <FormattedMessage id="membership.page.started.text" defaultMessage="It starts as soon as its first payment is confirmed. If you did not finish paying, pay below with your card." />
            </TitledCallout>
          )}
          {membership && !state?.current && !started && (
            <Callout icon="history" className="membership-ended">
              <FormattedMessage
                id="membership.page.ended"
                defaultMessage="{lapsed, select, yes {Your {plan} membership ended on {date}: a renewal was not paid.} other {Your {plan} membership ended on {date}.}}"
                values={{ lapsed: membership.status === 'LAPSED' ? 'yes' : 'no', plan: membership.plan.name, date: longDate(membership.endedAt ?? membership.currentPeriodEnd) }}
              />
            </Callout>
          )}
          {joining && (
            <section className="membership-join-section" aria-labelledby="membership-join-title">
              <h2 id="membership-join-title">
                {membership?.status === 'PAST_DUE' ? (
                  <FormattedMessage id="membership.page.payAgain" defaultMessage="Pay again with another card" />
                ) : started ? (
                  <FormattedMessage id="membership.page.finish" defaultMessage="Finish joining" />
                ) : membership ? (
                  <FormattedMessage id="membership.page.again" defaultMessage="Become a member again" />
                ) : (
                  <FormattedMessage id="membership.page.choose" defaultMessage="Choose a plan" />
                )}
              </h2>
              {join}
            </section>
          )}
          <GiftMembershipSection signedIn={signedIn} canRedeem={!state?.current} />
          {membership && membership.charges.length > 0 && <MembershipCharges charges={membership.charges} />}
        </>
      )}
    </div>
  );
}
