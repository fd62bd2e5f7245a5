import { Card, Icon, RadioCard, RadioGroup } from '@blueprintjs/core';
import type { MembershipPlanCard_PlanFragment } from '../../apollo/generated/graphql';
import { planBenefits, planPrice } from './membership-format';

export type Plan = MembershipPlanCard_PlanFragment;

/** A plan's name, price and benefits (phrasing content only: inside a radio card it is the label). */
function PlanFacts({ plan }: { plan: Plan }) {
  return (
    <span className="membership-plan">
      <span className="membership-plan-name">{plan.name}</span>
      <span className="membership-plan-price">{planPrice(plan)}</span>
      {planBenefits(plan).map((benefit) => (
        <span key={benefit} className="membership-plan-benefit">
          <Icon icon="tick" size={14} aria-hidden />
          {benefit}
        </span>
      ))}
    </span>
  );
}

/**
 * The plans offered, as cards: to read (`selected` undefined), or to choose one of, as radio cards
 * labelled by `labelledBy`.
 */
export function MembershipPlans({ plans, selected, onSelect, labelledBy }: { plans: readonly Plan[]; selected?: number; onSelect?: (id: number) => void; labelledBy?: string }) {
  if (selected === undefined || !onSelect) {
    return (
      <ul className="membership-plans" aria-labelledby={labelledBy}>
        {plans.map((plan) => (
          <li key={plan.id}>
            <Card className="membership-plan-card">
              <PlanFacts plan={plan} />
            </Card>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <RadioGroup className="membership-plans" name="membership-plan" selectedValue={String(selected)} onChange={(event) => onSelect(Number(event.currentTarget.value))} aria-labelledby={labelledBy}>
      {plans.map((plan) => (
        <RadioCard key={plan.id} value={String(plan.id)} className="membership-plan-card">
          <PlanFacts plan={plan} />
        </RadioCard>
      ))}
    </RadioGroup>
  );
}
