import { useState, type FormEvent } from 'react';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Button, Spinner } from '@blueprintjs/core';
import { errorCode, errorField, errorMessage } from '../../apollo/errors';
import { CARD_FIELDS, NO_CARD, cardPayment, cardProblems, type CardField } from '../checkout/card-input';
import { CardFields } from '../checkout/CardFields';
import { PaymentSetupQuery } from '../checkout/checkout-operations';
import { planPrice } from './membership-format';
import { MyMembershipQuery, SubscribeMutation } from './membership-operations';
import type { Plan } from './MembershipPlans';
import { TitledCallout } from './TitledCallout';

const TEST_HINT = 'This shop takes test payments: pay with 4242 4242 4242 4242, any future expiry and any code (4000 0000 0000 0341 pays once and is declined at the renewal).';

/**
 * The card the membership is paid with, first period now and each renewal after: "Become a member ·
 * $4.99 a month". The shop's answer lands on the field it names, or in a callout (a declined card,
 * a plan no longer offered, a membership already there); once paid the page shows the membership.
 */
export function MembershipJoinForm({ plan, onPlansChanged }: { plan: Plan; onPlansChanged: () => void }) {
  const { data: setup } = useQuery(PaymentSetupQuery, { fetchPolicy: 'cache-and-network' });
  const [card, setCard] = useState(NO_CARD);
  const [problems, setProblems] = useState<Partial<Record<CardField, string>>>({});
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const [subscribe, { loading }] = useMutation(SubscribeMutation, {
    // The page reads the shopper's membership from this query: the new one (a new id) takes its place.
    update: (cache, { data }) => data && cache.writeQuery({ query: MyMembershipQuery, data: { myMembership: data.subscribe } }),
  });
  const client = useApolloClient();

  if (!setup) return <Spinner size={24} className="membership-state" />;
  if (!setup.paymentSetup.available) {
    return (
      <TitledCallout intent="warning" icon="disable" title="Payments are not set up" role="status">
        This shop cannot take payments yet, so memberships cannot be bought. Please come back later.
      </TitledCallout>
    );
  }
  if (setup.paymentSetup.provider !== 'test') {
    return (
      <TitledCallout intent="warning" icon="disable" title="Memberships cannot be bought online yet" role="status">
        This shop&apos;s payment provider does not take memberships yet. Please come back later.
      </TitledCallout>
    );
  }

  const join = async (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    const found = cardProblems(card);
    setProblems(found);
    setFailure(null);
    if (Object.keys(found).length) return;
    try {
      await subscribe({ variables: { planId: plan.id, payment: cardPayment(card) } });
      setCard(NO_CARD);
      window.scrollTo({ top: 0 });
    } catch (error) {
      const [code, field, message] = [errorCode(error), errorField(error), errorMessage(error, 'Please try again.')];
      if (field && CARD_FIELDS.includes(field)) setProblems({ [field as CardField]: message });
      else if (code === 'PAYMENT_DECLINED') setFailure({ title: 'Payment declined', message });
      else if (code === 'NOT_FOUND') {
        setFailure({ title: 'This plan is no longer offered', message: 'Choose one of the plans offered now.' });
        onPlansChanged();
      } else if (code === 'CONFLICT') {
        setFailure({ title: 'You are a member already', message });
        void client.refetchQueries({ include: [MyMembershipQuery] });
      } else setFailure({ title: 'The payment did not go through', message });
    }
  };

  return (
    <form className="membership-join" onSubmit={(event) => void join(event)} noValidate aria-label="Membership payment">
      <CardFields card={card} onChange={setCard} problems={problems} hint={TEST_HINT} />
      {failure && (
        <TitledCallout intent="danger" title={failure.title} role="alert">
          {failure.message}
        </TitledCallout>
      )}
      <Button type="submit" intent="primary" size="large" fill icon="lock" loading={loading} text={`Become a member · ${planPrice(plan)}`} />
      <p className="muted membership-terms">It renews every {plan.period === 'YEAR' ? 'year' : 'month'} on the same card until you cancel; cancelling keeps the benefits to the end of the period paid for.</p>
    </form>
  );
}
