import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { Membership, MembershipPlan } from '../../../server/src/modules/memberships/membership.entity.js';
import { MembershipStatus } from '../../../server/src/modules/memberships/membership.entity.js';
import { planId } from '../../../server/src/modules/memberships/membership.service.js';
import { membershipClientSecrets } from '../../../server/src/modules/memberships/membership-billing.js';
import type { Services } from '../../../server/src/services.js';
import { body, pathId, withRestFields, type RouteDef } from '../route.js';

const planJson = (plan: MembershipPlan) => ({
  id: plan.id,
  name: plan.name,
  price: decimalToNumber(plan.price),
  period: plan.period,
  ecards_included: plan.ecardsIncluded,
  percent_off_other: plan.percentOffOther,
  active: plan.active,
});

const planInput = (json: Record<string, unknown>) => ({ name: json.name, price: json.price, period: json.period, ecardsIncluded: json.ecards_included, percentOffOther: json.percent_off_other, active: json.active });
const PLAN_FIELDS = { ecardsIncluded: 'ecards_included', percentOffOther: 'percent_off_other' };

/**
 * A membership as the contract shapes it: "cancelled" only once its period has ended; "incomplete"
 * (Stripe) until its first payment is confirmed, and then, in the answer of the POST that started
 * it only, the `payment_client_secret` Stripe.js confirms it with.
 */
const membershipJson = (membership: Membership | null) => {
  const secret = membership ? membershipClientSecrets.get(membership) : undefined;
  return {
    plan: membership ? planJson(membership.plan) : null,
    status: membership?.status ?? null,
    renews_at: membership && membership.status === MembershipStatus.ACTIVE && !membership.cancelAtPeriodEnd ? membership.currentPeriodEnd.toISOString() : null,
    current_period_end: membership?.currentPeriodEnd.toISOString() ?? null,
    cancel_at_period_end: membership?.cancelAtPeriodEnd ?? false,
    gift: membership?.gift ?? false,
    ...(secret ? { payment_client_secret: secret } : {}),
  };
};

/** The membership rows of the REST contract (section 18): a shopper's membership, and the admin's plans. */
export function membershipRoutes({ memberships, giftMemberships }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/membership',
      access: 'user',
      async handler(ctx, _req, res) {
        res.json(membershipJson(await memberships.mine(ctx)));
      },
    },
    {
      method: 'post',
      path: '/membership',
      access: 'user',
      async handler(ctx, req, res) {
        const json = body(req);
        res.status(201).json(membershipJson(await withRestFields(memberships.subscribe(ctx, planId(json.plan_id), json.payment), { planId: 'plan_id' })));
      },
    },
    {
      method: 'post',
      path: '/membership/redeem',
      access: 'user',
      async handler(ctx, req, res) {
        res.status(201).json(membershipJson(await giftMemberships.redeem(ctx, body(req).code)));
      },
    },
    {
      method: 'post',
      path: '/membership/cancel',
      access: 'user',
      async handler(ctx, _req, res) {
        res.json(membershipJson(await memberships.cancel(ctx)));
      },
    },
    {
      method: 'post',
      path: '/membership/resume',
      access: 'user',
      async handler(ctx, _req, res) {
        res.json(membershipJson(await memberships.resume(ctx)));
      },
    },
    {
      method: 'get',
      path: '/admin/membership-plans',
      access: 'admin',
      async handler(ctx, _req, res) {
        res.json((await memberships.plans(ctx, true)).map(planJson));
      },
    },
    {
      method: 'post',
      path: '/admin/membership-plans',
      access: 'admin',
      async handler(ctx, req, res) {
        res.status(201).json(planJson(await withRestFields(memberships.createPlan(ctx, planInput(body(req))), PLAN_FIELDS)));
      },
    },
    {
      method: 'put',
      path: '/admin/membership-plans/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        res.json(planJson(await withRestFields(memberships.updatePlan(ctx, pathId(req.params.id, 'Membership plan'), planInput(body(req))), PLAN_FIELDS)));
      },
    },
  ];
}
