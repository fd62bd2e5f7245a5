/**
 * The SQL by which jobs are queued and the workers woken: the queue's own statements, and any
 * feature's statement that writes something and its e-mails at once.
 */
import { SIGNAL_CHANNEL } from '../../core/change-feed.js';
import { preparedRead } from '../../db/prepared.js';

/** The change-feed signal by which a committed job due now wakes the processes that send mail. */
export const MAIL_QUEUED_SIGNAL = 'mail-queued';

/**
 * The INSERT that queues the jobs in `param` (a JSON array, see `MailQueue.batch`) when `when` holds:
 * the queue's own statements use it, and so may a feature's statement that writes something and its
 * e-mails at once (as a CTE; `select count(*) from <cte>` answers how many were queued). Jobs whose
 * dedupe key already has a job are skipped.
 */
export function enqueueSql(param: string, when = 'true'): string {
  return `insert into mail_job (kind, recipient, payload, subject, ref, dedupe_key, due_at)
      select kind, recipient, payload, subject, ref, dedupe_key, due_at
        from jsonb_to_recordset(${param}::jsonb) as r(kind text, recipient text, payload jsonb, subject text, ref text, dedupe_key text, due_at timestamptz)
       where ${when}
      on conflict do nothing
      returning id`;
}

/** The NOTIFY that wakes the workers when the statement's transaction commits, when `wake` (a boolean SQL value) holds. */
export const wakeSql = (wake: string): string => `(case when ${wake} then pg_notify('${SIGNAL_CHANNEL}', '${MAIL_QUEUED_SIGNAL}') end)`;

/** Queues jobs in one statement, whatever their number (with a wake-up for the workers, or without). */
const enqueueStatement = (name: string, wake: boolean) =>
  preparedRead(name, `
    with added as (${enqueueSql('$1')})
    select id${wake ? `, ${wakeSql('true')} as woken` : ''} from added order by id`);
export const ENQUEUE = enqueueStatement('mail_enqueue', false);
export const ENQUEUE_AND_WAKE = enqueueStatement('mail_enqueue_and_wake', true);

/** Jobs made ready to queue (`MailQueue.batch`): their JSON for `enqueueSql`, and whether queueing them wakes the workers. */
export interface JobBatch {
  readonly json: string;
  readonly wake: boolean;
}
