/**
 * The statements of the webhook workers, prepared (parsed and planned once per connection): a batch
 * of deliveries is one claim and a few settles, whatever its size.
 */
import { preparedRead } from '../../db/prepared.js';

/** Deliveries a worker claims at once: four times the requests it has in flight, so that the next ones are at hand and a claim costs a round trip per 64 deliveries. */
export const claimSize = (concurrency: number): number => concurrency * 4;

/** A claimed delivery with its event and endpoint, as the claim answers it. */
export interface ClaimedRow {
  id: number;
  attempts: number;
  retry_until: Date;
  event_id: string;
  type: string;
  created_at: Date;
  data: string;
  url: string;
  secret: string;
  /** Set when its endpoint was turned off meanwhile: it fails without being sent. */
  disabled: boolean;
}

/**
 * Claims the due deliveries ($1: now), oldest due first, under the token $3: each one's next attempt
 * moves to the lease's end ($2), so that one whose worker dies falls due again by itself, and
 * FOR UPDATE SKIP LOCKED lets concurrent workers take disjoint batches without waiting on each other.
 */
export const claimStatement = (size: number) =>
  preparedRead(`webhook_claim_${size}`, `
    with due as (
      select id from webhook_delivery
       where status = 'pending' and next_attempt_at <= $1::timestamptz
       order by next_attempt_at
       limit ${size}
       for update skip locked),
    claimed as (
      update webhook_delivery d set next_attempt_at = $2::timestamptz, claim_token = $3::uuid
        from due where d.id = due.id
      returning d.id, d.event_id, d.endpoint_id, d.attempts, d.retry_until)
    select c.id, c.attempts, c.retry_until, e.id as event_id, e.type, e.created_at, e.data::text as data, p.url, p.secret, p.disabled_at is not null as disabled
      from claimed c join webhook_event e on e.id = c.event_id join webhook_endpoint p on p.id = c.endpoint_id`);

/** Keeps the claim on deliveries still in hand ($1 ids, $2 token) until $3. */
export const RENEW = preparedRead('webhook_renew', `
    update webhook_delivery set next_attempt_at = $3::timestamptz
     where id = any($1::int[]) and claim_token = $2::uuid and status = 'pending'`);

/**
 * Writes attempts' outcomes ($1: JSON rows `{id, sent, ok, code, error, at, next}`; `next` null for a
 * last failure; `sent` false for one that was not sent, its endpoint being turned off) for the deliveries the token $2 still holds (one another worker claimed since, its lease
 * having run out, is that worker's to settle), and keeps each endpoint's `failing_since`: cleared by a
 * success, else the first failure after the last success. Answers the endpoints whose deliveries have
 * all been failing since before $3 (three days ago): they are turned off.
 */
export const SETTLE = preparedRead('webhook_settle', `
    with r as (
      select * from jsonb_to_recordset($1::jsonb) as r(id int, sent boolean, ok boolean, code int, error text, at timestamptz, next timestamptz)),
    settled as (
      update webhook_delivery d
         set status = case when r.ok then 'succeeded' when r.next is null then 'failed' else 'pending' end,
             attempts = d.attempts + (case when r.sent then 1 else 0 end), last_status_code = r.code, last_error = r.error,
             last_attempt_at = case when r.sent then r.at else d.last_attempt_at end,
             next_attempt_at = case when r.ok then null else r.next end, claim_token = null
        from r where d.id = r.id and d.claim_token = $2::uuid
      returning d.endpoint_id, r.ok, r.at, r.sent),
    succeeded as (select endpoint_id, max(at) as last_ok from settled where ok group by endpoint_id),
    outcome as (
      select s.endpoint_id, ok.last_ok, min(s.at) filter (where not s.ok and (ok.last_ok is null or s.at > ok.last_ok)) as first_failure
        from settled s left join succeeded ok using (endpoint_id)
       where s.sent
       group by s.endpoint_id, ok.last_ok),
    failing as (
      select o.endpoint_id, case when o.last_ok is not null then o.first_failure else coalesce(p.failing_since, o.first_failure) end as since, p.disabled_at
        from outcome o join webhook_endpoint p on p.id = o.endpoint_id),
    marked as (
      update webhook_endpoint p set failing_since = f.since
        from failing f where p.id = f.endpoint_id and p.failing_since is distinct from f.since)
    select endpoint_id as id from failing where disabled_at is null and since <= $3::timestamptz`);

/**
 * Turns off endpoints ($1 ids) at $2 with the reason $3, failing their pending deliveries with it,
 * and answers those it turned off (with their URL, for the admins' e-mail).
 */
export const DISABLE = preparedRead('webhook_disable', `
    with off as (
      update webhook_endpoint set disabled_at = $2::timestamptz, disabled_reason = $3
       where id = any($1::int[]) and disabled_at is null
      returning id, url, failing_since),
    dropped as (
      update webhook_delivery d set status = 'failed', next_attempt_at = null, claim_token = null, last_error = $3
        from off where d.endpoint_id = off.id and d.status = 'pending')
    select id, url, failing_since from off`);

/** Gives back claimed deliveries not sent ($1 ids, $2 token): due again at $3. */
export const RELEASE = preparedRead('webhook_release', `
    update webhook_delivery set next_attempt_at = $3::timestamptz, claim_token = null
     where id = any($1::int[]) and claim_token = $2::uuid and status = 'pending'`);

/** When the next pending delivery falls due (or a claim's lease runs out). */
export const NEXT_DUE = preparedRead('webhook_next_due', `select min(next_attempt_at) as next from webhook_delivery where status = 'pending'`);
