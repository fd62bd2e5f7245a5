import { useState, type FormEvent } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Spinner } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import type { GiftMembershipChoice } from '../cart/cart-lines';
import { formatPrice } from '../common/price';
import { MembershipPlans } from '../membership/MembershipPlans';
import { MembershipPlansQuery } from '../membership/membership-operations';
import { giftRecipientErrors, GiftRecipientFields, trimmedRecipient, type GiftRecipient, type GiftRecipientErrors } from './GiftRecipientFields';

const EMPTY: GiftRecipient = {
  recipientName: '',
  recipientEmail: '',
  senderName: '',
  message: '',
};

/**
 * A membership given as a present: one of the plans offered (its price is the plan's; the gift lasts
 * the plan's period and never renews), whom it goes to, the giver and a message.
 */
export function GiftMembershipForm({ onAdd }: { onAdd: (choice: GiftMembershipChoice, price: string) => void }) {
  const plans = useQuery(MembershipPlansQuery, {
    fetchPolicy: 'cache-and-network',
  });
  const offered = plans.data?.membershipPlans;
  const [planId, setPlanId] = useState<number | null>(null);
  const [gift, setGift] = useState<GiftRecipient>(EMPTY);
  const [errors, setErrors] = useState<GiftRecipientErrors>({});
  const [tried, setTried] = useState(false);
  const intl = useIntl();
  const plan = offered?.find((p) => p.id === planId) ?? offered?.[0];

  if (!offered) return plans.error ? <Callout intent="danger"><FormattedMessage id="product.giftMembership.plansError" defaultMessage="The plans could not be loaded. Please reload the page." /></Callout> : <Spinner size={24} />;
  if (!plan) return <Callout icon="info-sign"><FormattedMessage id="product.giftMembership.noPlans" defaultMessage="No membership plans are offered at the moment, so none can be given." /></Callout>;

  const change = (patch: Partial<GiftRecipient>) => {
    const next = { ...gift, ...patch };
    setGift(next);
    if (tried) setErrors(giftRecipientErrors(next));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const found = giftRecipientErrors(gift);
    setErrors(found);
    if (Object.keys(found).length) {
      document.querySelector<HTMLElement>(`#gift-membership-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    onAdd({ ...trimmedRecipient(gift), planId: plan.id, planName: plan.name }, plan.price);
    setGift({ ...EMPTY, senderName: gift.senderName.trim() });
    setTried(false);
  };

  return (
    <form className="gift-card-form gift-membership-form" onSubmit={submit} noValidate>
      <div className="gift-membership-plan">
        <p id="gift-membership-plan-label" className="bp6-label">
          <FormattedMessage id="product.giftMembership.plan" defaultMessage="Plan" />
        </p>
        <MembershipPlans plans={offered} selected={plan.id} onSelect={setPlanId} labelledBy="gift-membership-plan-label" />
        <p className="muted gift-membership-note">
          <FormattedMessage id="product.giftMembership.note" defaultMessage="The membership starts when they redeem its code and lasts the plan's period; it never renews or charges them." />
        </p>
      </div>
      <GiftRecipientFields idPrefix="gift-membership" value={gift} errors={errors} onChange={change} emailHelp={intl.formatMessage({ id: 'product.giftMembership.emailHelp', defaultMessage: "The membership's code is e-mailed here as soon as your order is paid." })} />
      <Button type="submit" intent="primary" size="large" icon="shopping-cart" text={intl.formatMessage({ id: 'product.addToCartPriced', defaultMessage: 'Add to cart · {price}' }, { price: formatPrice(plan.price) })} />
    </form>
  );
}
