import { useState, type FormEvent } from 'react';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Button, Spinner } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorField, errorMessage } from '../../apollo/errors';
import { CARD_FIELDS, NO_CARD, cardPayment, cardProblems, type CardField } from '../checkout/card-input';
import { CardFields } from '../checkout/CardFields';
import { PaymentSetupQuery } from '../checkout/checkout-operations';
import { planPrice } from './membership-format';
import { MyMembershipQuery, SubscribeMutation } from './membership-operations';
import type { Plan } from './MembershipPlans';
import { RenewalTerms } from './RenewalTerms';
import { StripeMembershipJoin } from './StripeMembershipJoin';
import { TitledCallout } from './TitledCallout';
import { JOIN_FAILURE_TEXTS, joinFailure } from './join-failure';

/**
 * The card the membership is paid with, first period now and each renewal after: "Become a member ·
 * $4.99 a month". With the test provider the card is typed into the shop's own fields; with Stripe
 * into Stripe's card element (StripeMembershipJoin).
 */
export function MembershipJoinForm({ plan, onPlansChanged }: { plan: Plan; onPlansChanged: () => void }) {
  const intl = useIntl();
  const { data: setup } = useQuery(PaymentSetupQuery, { fetchPolicy: 'cache-and-network' });

  if (!setup) return <Spinner size={24} className="membership-state" />;
  if (!setup.paymentSetup.available) {
    return (
      <TitledCallout intent="warning" icon="disable" title={intl.formatMessage({ id: 'membership.join.noPayments.title', defaultMessage: 'Payments are not set up' })} role="status">
        <FormattedMessage id="membership.join.noPayments.text" defaultMessage="This shop cannot take payments yet, so memberships cannot be bought. Please come back later." />
      </TitledCallout>
    );
  }
  const { provider, publishableKey } = setup.paymentSetup;
  if (provider === 'stripe' && publishableKey) return <StripeMembershipJoin plan={plan} publishableKey={publishableKey} onPlansChanged={onPlansChanged} />;
  if (provider !== 'test') {
    return (
      <TitledCallout intent="warning" icon="disable" title={intl.formatMessage({ id: 'membership.join.noProvider.title', defaultMessage: 'Memberships cannot be bought online yet' })} role="status">
        <FormattedMessage id="membership.join.noProvider.text" defaultMessage="This shop's payment provider does not take memberships yet. Please come back later." />
      </TitledCallout>
    );
  }
  return <CardJoinForm plan={plan} onPlansChanged={onPlansChanged} />;
}

/** The test provider's form: the shop's own card fields; its answer lands on the field it names, or in a callout; once paid the page shows the membership. */
function CardJoinForm({ plan, onPlansChanged }: { plan: Plan; onPlansChanged: () => void }) {
  const intl = useIntl();
  const [card, setCard] = useState(NO_CARD);
  const [problems, setProblems] = useState<Partial<Record<CardField, string>>>({});
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const [subscribe, { loading }] = useMutation(SubscribeMutation, {
    // The page reads the shopper's membership from this query: the new one (a new id) takes its place.
    update: (cache, { data }) => data && cache.writeQuery({ query: MyMembershipQuery, data: { myMembership: data.subscribe } }),
  });
  const client = useApolloClient();

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
      const field = errorField(error);
      if (field && CARD_FIELDS.includes(field)) {
        setProblems({ [field as CardField]: errorMessage(error, intl.formatMessage(JOIN_FAILURE_TEXTS.retry)) });
        return;
      }
      const found = joinFailure(error);
      setFailure(found);
      if (found.reload === 'plans') onPlansChanged();
      if (found.reload === 'membership') void client.refetchQueries({ include: [MyMembershipQuery] });
    }
  };

  return (
    <form className="membership-join" onSubmit={(event) => void join(event)} noValidate aria-label={intl.formatMessage({ id: 'membership.join.form', defaultMessage: 'Membership payment' })}>
      <CardFields
        card={card}
        onChange={setCard}
        problems={problems}
        hint={intl.formatMessage({
          id: 'membership.join.testHint',
          defaultMessage: 'This shop takes test payments: pay with 4242 4242 4242 4242, any future expiry and any code (4000 0000 0000 0341 pays once and is declined at the renewal).',
        })}
      />
      {failure && (
        <TitledCallout intent="danger" title={failure.title} role="alert">
          {failure.message}
        </TitledCallout>
      )}
      <Button type="submit" intent="primary" size="large" fill icon="lock" loading={loading} text={intl.formatMessage({ id: 'membership.join.submit', defaultMessage: 'Become a member · {price}' }, { price: planPrice(plan) })} />
      <RenewalTerms plan={plan} />
    </form>
  );
}

