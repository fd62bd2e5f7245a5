import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Spinner } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
import { useAuth } from '../../auth/auth-store';
import { EmptyState } from '../../common/EmptyState';
import { GiftMembershipSection } from './GiftMembershipSection';
import { MembershipCharges } from './MembershipCharges';
import { MembershipJoinForm } from './MembershipJoinForm';
import { MembershipPlans } from './MembershipPlans';
import { MembershipSummary } from './MembershipSummary';
import { TitledCallout } from './TitledCallout';
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
      <TitledCallout intent="danger" title="The plans could not be loaded">
        <Button text="Try again" icon="refresh" onClick={() => void plans.refetch()} />
      </TitledCallout>
    );
  } else if (!offered) {
    join = <Spinner className="membership-state" />;
  } else if (!offered.length || !plan) {
    join = <EmptyState className="membership-state" icon="people" title="No plans are offered at the moment" description="Please come back later." />;
  } else if (!signedIn) {
    join = (
      <>
        <MembershipPlans plans={offered} labelledBy="membership-join-title" />
        <div className="membership-sign-in">
          <Link to="/login" state={{ from: '/membership' }} className="bp6-button bp6-intent-primary bp6-large">
            Sign in to become a member
          </Link>
          <span className="muted">New here? Create an account on the same page.</span>
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
      <h1>Membership</h1>
      <p className="membership-lede">E-cards included and a saving on albums and collections, for as long as you are a member. Cancel whenever you like: the benefits last to the end of the period paid for.</p>
      {signedIn && mine.error && !mine.data ? (
        <TitledCallout intent="danger" title="Your membership could not be loaded" level={2}>
          {errorMessage(mine.error, 'Please try again.')}
        </TitledCallout>
      ) : signedIn && !mine.data ? (
        <Spinner className="membership-state" />
      ) : (
        <>
          {membership && state?.current && <MembershipSummary membership={membership} />}
          {membership && started && (
            <TitledCallout intent="primary" icon="time" title={`Your ${membership.plan.name} membership is not paid yet`} level={2} className="membership-started" role="status">
              It starts as soon as its first payment is confirmed. If you did not finish paying, pay below with your card.
            </TitledCallout>
          )}
          {membership && !state?.current && !started && (
            <Callout icon="history" className="membership-ended">
              Your {membership.plan.name} membership ended on {longDate(membership.endedAt ?? membership.currentPeriodEnd)}
              {membership.status === 'LAPSED' ? ': a renewal was not paid.' : '.'}
            </Callout>
          )}
          {joining && (
            <section className="membership-join-section" aria-labelledby="membership-join-title">
              <h2 id="membership-join-title">{membership?.status === 'PAST_DUE' ? 'Pay again with another card' : started ? 'Finish joining' : membership ? 'Become a member again' : 'Choose a plan'}</h2>
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
