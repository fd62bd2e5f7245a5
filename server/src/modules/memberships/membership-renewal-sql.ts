/**
 * The statements of the renewals sweep, prepared (parsed and planned once per connection): at 10,000
 * memberships due in a minute, a renewal is a claim, the provider's call and one write, where the
 * ORM took a statement for each row it read or wrote (the claim, the membership, the charge, the
 * receipt, the membership again).
 */
import { preparedRead } from '../../db/prepared.js';
import { enqueueSql, wakeSql } from '../mail/index.js';
import type { MembershipPeriod, MembershipStatus } from './membership.entity.js';

/** A membership due for a step, with its plan, as its claim reads it (timestamps as PostgreSQL writes them). */
export interface DueMembership {
  id: number;
  user_id: number;
  status: MembershipStatus;
  provider: string;
  payment_method: string | null;
  /** The provider's subscription, when the provider renews it (Stripe Billing). */
  provider_subscription_id: string | null;
  card_last4: string | null;
  current_period_end: string;
  cancel_at_period_end: boolean;
  past_due_since: string | null;
  reminded_for: string | null;
  plan_name: string;
  price: string;
  period: MembershipPeriod;
}

const DUE = `select m.id, m.user_id, m.status, m.provider, m.payment_method, m.provider_subscription_id, m.card_last4, m.current_period_end, m.cancel_at_period_end, m.past_due_since, m.reminded_for,
                    p.name as plan_name, p.price::text as price, p.period
               from membership m join membership_plan p on p.id = m.plan_id`;

/**
 * The next membership due for each step, locked for the claiming transaction; one that another
 * transaction holds (another process, or another of this one's) is skipped: it is being done. Each
 * is bounded by the period's end for the due index (a failed renewal came at or after its period's
 * end, so a lapse is bounded by the grace period's start too; but not one the provider renews, whose
 * period moves on at the provider even when its renewal fails). $2: ids this run leaves alone.
 */
export const CLAIM = {
  /** A period that has ended: renewed, or ended when cancelled (one the provider renews: only then). $1: now. */
  end: preparedRead('membership_claim_end', `${DUE}
      where m.status = 'active' and m.current_period_end <= $1::timestamptz and (m.provider_subscription_id is null or m.cancel_at_period_end) and m.id <> all($2::int[])
      order by m.current_period_end limit 1 for update of m skip locked`),
  /** A grace period that has ended. $1: its start (now less the grace). */
  lapse: preparedRead('membership_claim_lapse', `${DUE}
      where m.status = 'past_due' and (m.current_period_end <= $1::timestamptz or m.provider_subscription_id is not null) and m.past_due_since <= $1::timestamptz and m.id <> all($2::int[])
      order by m.current_period_end limit 1 for update of m skip locked`),
  /** A yearly plan renewing within the reminder's notice, not reminded of it yet. $1: now plus the notice. */
  remind: preparedRead('membership_claim_remind', `${DUE}
      where m.status = 'active' and not m.cancel_at_period_end and p.period = 'year' and m.current_period_end <= $1::timestamptz
        and m.reminded_for is distinct from m.current_period_end and m.id <> all($2::int[])
      order by m.current_period_end limit 1 for update of m skip locked`),
};

/** The charge of a renewal ($1 membership, $2 amount, $3-$4 the period, $5 reference, $6 why it failed, $7 key, $8 now). */
const CHARGE = (status: 'paid' | 'failed') => `insert into membership_charge (membership_id, amount, period_start, period_end, status, reference, message, idempotency_key, created_at)
      values ($1::int, $2::numeric, $3::timestamptz, $4::timestamptz, '${status}', $5, $6, $7, $8::timestamptz)`;

/** The e-mail of a step ($9: the jobs, `MailQueue.batch`; $10: whether they wake the workers), queued in its statement. */
const QUEUE = `queued as (${enqueueSql('$9')})
      select ${wakeSql('$10::boolean')} as woken`;

/** A paid renewal: its charge, the membership in its next period, its receipt. */
export const RENEWED = preparedRead('membership_renewed', `
    with charged as (${CHARGE('paid')}),
    moved as (update membership set current_period_start = $3::timestamptz, current_period_end = $4::timestamptz, updated_at = $8::timestamptz where id = $1::int),
    ${QUEUE}`);

/** A declined renewal: its charge, the membership past due, the e-mail saying so. */
export const DECLINED = preparedRead('membership_renewal_declined', `
    with charged as (${CHARGE('failed')}),
    moved as (update membership set status = 'past_due', past_due_since = $8::timestamptz, updated_at = $8::timestamptz where id = $1::int),
    ${QUEUE}`);

/** A yearly plan's reminder, once per period ($1 membership, $2 now, $3-$4 as $9-$10 above). */
export const REMINDED = preparedRead('membership_reminded', `
    with reminded as (update membership set reminded_for = current_period_end, updated_at = $2::timestamptz where id = $1::int),
    queued as (${enqueueSql('$3')})
    select ${wakeSql('$4::boolean')} as woken`);

/** A cancelled membership at the end of its period ($1 membership, $2 now). */
export const ENDED = preparedRead('membership_ended', `update membership set status = 'cancelled', ended_at = current_period_end, updated_at = $2::timestamptz where id = $1::int`);

/** A membership whose grace period ended unpaid ($1 membership, $2 now). */
export const LAPSED = preparedRead('membership_lapsed', `update membership set status = 'lapsed', ended_at = $2::timestamptz, updated_at = $2::timestamptz where id = $1::int`);
