import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Button, Spinner } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAuth } from '../../auth/auth-store';
import type { StripeCardHandle } from '../checkout/StripeCardSection';
import { JOIN_FAILURE_TEXTS, joinFailure, type JoinFailure } from './join-failure';
import { planPrice } from './membership-format';
import { MyMembershipQuery, SubscribeMutation } from './membership-operations';
import type { Plan } from './MembershipPlans';
import { RenewalTerms } from './RenewalTerms';
import { TitledCallout } from './TitledCallout';

/** Stripe's card element (and Stripe.js) load only when the shop takes payments through Stripe. */
const StripeCardSection = lazy(() => import('../checkout/StripeCardSection'));

/** How often the page asks again once Stripe took the payment but the shop has not heard of it yet. */
const PENDING_POLL_MS = 5000;

/**
 * Joining through Stripe Billing: the shop starts the membership (INCOMPLETE, no benefits yet) and
 * answers its first payment's client secret; Stripe's card element confirms it, and the page waits
 * for Stripe's signed event to make the membership ACTIVE (it reads myMembership until it is). A
 * decline keeps the form, and the next try pays the same membership; a confirmation Stripe has not
 * told the shop of within half a minute is said so, and the page keeps looking.
 */
export function StripeMembershipJoin({ plan, publishableKey, onPlansChanged }: { plan: Plan; publishableKey: string; onPlansChanged: () => void }) {
  const intl = useIntl();
  const auth = useAuth();
  const client = useApolloClient();
  const card = useRef<StripeCardHandle>(null);
  // The page keeps showing the shopper's current membership (a past-due one) until the new one is paid: no cache write here.
  const [subscribe] = useMutation(SubscribeMutation);
  const [step, setStep] = useState<'idle' | 'starting' | 'confirming'>('idle');
  const [failure, setFailure] = useState<JoinFailure | null>(null);
  const [awaiting, setAwaiting] = useState(false);
  useQuery(MyMembershipQuery, { skip: !awaiting, pollInterval: PENDING_POLL_MS, fetchPolicy: 'network-only' });

  const join = async (event: FormEvent) => {
    event.preventDefault();
    if (step !== 'idle') return;
    setFailure(null);
    setAwaiting(false);
    setStep('starting');
    try {
      const { data } = await subscribe({ variables: { planId: plan.id, payment: null } });
      const started = data!.subscribe;
      if (started.status === 'INCOMPLETE') {
        if (!started.paymentClientSecret || !card.current) {
          setFailure({
            title: intl.formatMessage(JOIN_FAILURE_TEXTS.notThrough),
            message: intl.formatMessage({ id: 'membership.stripe.formLoading', defaultMessage: 'The card form is still loading; please try again in a moment.' }),
          });
          return;
        }
        setStep('confirming');
        // Paid once the shop has heard from Stripe: the membership the page reads is this one, and active.
        const member = async () => {
          const { data: now } = await client.query({ query: MyMembershipQuery, fetchPolicy: 'network-only' });
          return now?.myMembership?.id === started.id && now.myMembership.status !== 'INCOMPLETE';
        };
        const result = await card.current.confirm(started.paymentClientSecret, { email: auth.user?.email ?? null, settled: member });
        if (result.error) {
          setFailure({
            title: intl.formatMessage(JOIN_FAILURE_TEXTS.declined),
            message: intl.formatMessage({ id: 'membership.stripe.declined', defaultMessage: '{reason} Nothing was charged: try another card.' }, { reason: result.error }),
          });
          return;
        }
        if (!result.settled) {
          setAwaiting(true);
          return;
        }
      } else await client.refetchQueries({ include: [MyMembershipQuery] });
      window.scrollTo({ top: 0 });
    } catch (error) {
      const found = joinFailure(error);
      setFailure(found);
      if (found.reload === 'plans') onPlansChanged();
      if (found.reload === 'membership') void client.refetchQueries({ include: [MyMembershipQuery] });
    } finally {
      setStep('idle');
    }
  };

  return (
    <form className="membership-join" onSubmit={(event) => void join(event)} noValidate aria-label={intl.formatMessage({ id: 'membership.join.form', defaultMessage: 'Membership payment' })}>
      <Suspense fallback={<Spinner size={20} />}>
        <StripeCardSection ref={card} publishableKey={publishableKey} />
      </Suspense>
      {failure && (
        <TitledCallout intent="danger" title={failure.title} role="alert">
          {failure.message}
        </TitledCallout>
      )}
      {awaiting && (
        <TitledCallout intent="primary" icon="time" title={intl.formatMessage({ id: 'membership.stripe.received.title', defaultMessage: 'Payment received' })} role="status">
          <FormattedMessage id="membership.stripe.received.text" defaultMessage="Stripe has your payment; your membership starts as soon as Stripe confirms it to the shop. This page shows it then." />
        </TitledCallout>
      )}
      <Button type="submit" intent="primary" size="large" fill icon="lock" loading={step !== 'idle'} text={intl.formatMessage({ id: 'membership.join.submit', defaultMessage: 'Become a member · {price}' }, { price: planPrice(plan) })} />
      {step === 'confirming' && (
        <p className="muted membership-terms" role="status">
          <FormattedMessage id="membership.stripe.confirming" defaultMessage="Confirming your payment with Stripe…" />
        </p>
      )}
      <RenewalTerms plan={plan} />
    </form>
  );
}
