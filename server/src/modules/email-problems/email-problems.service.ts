import { withEm, type RequestContext } from '../../core/context.js';
import { recordAudit } from '../audit/audit.js';
import type { MailQueue } from '../mail/mail-queue.js';
import { NOT_SENT_REFUNDED } from '../orders/refund.service.js';
import type { EmailProblem, EmailProblems } from './email-problems.types.js';

/** A due e-mail still unsent this long after its time is listed as waiting. */
export const WAITING_AFTER_MINUTES = 15;
const LIMIT = 500;

/** Failed e-mails, and e-mails waiting long past their time; never those a refund stopped on purpose. */
const PROBLEM = `(j.status = 'failed' and coalesce(j.last_error, '') <> ?) or (j.status in ('queued', 'sending') and j.due_at < now() - interval '${WAITING_AFTER_MINUTES} minutes')`;

interface Row {
  id: number;
  kind: string;
  status: string;
  recipient: string | null;
  order_id: string | null;
  attempts: number;
  last_error: string | null;
  due_at: Date;
  created_at: Date;
  total: string;
}

/**
 * The admins' view of e-mail that did not go out: failed ones (the queue gave up after retrying for
 * days) and ones waiting long past their time, with the reason, and "Retry" for one or all. Plain
 * reads of the `mail_job` table; a retry puts a failed e-mail back in the queue due now (a fresh
 * retry period) and brings a waiting one forward, then wakes the queue.
 */
export class EmailProblemsService {
  constructor(private readonly mail: Pick<MailQueue, 'wake'>) {}

  async list(ctx: RequestContext): Promise<EmailProblems> {
    const rows = await ctx.em.execute<Row[]>(
      `select j.id, j.kind, j.status, j.order_id, j.attempts, j.last_error, j.due_at, j.created_at,
              coalesce(j.recipient, case when j.kind in ('card', 'card-resend', 'reminder') then i.recipient_email else o.purchaser_email end) as recipient,
              count(*) over () as total
         from mail_job j left join "order" o on o.id = j.order_id left join order_item i on i.id = j.item_id
        where ${PROBLEM}
        order by (j.status = 'failed') desc, j.due_at, j.id
        limit ${LIMIT}`,
      [NOT_SENT_REFUNDED],
    );
    return { emails: rows.map(toProblem), totalCount: Number(rows[0]?.total ?? 0), waitingAfterMinutes: WAITING_AFTER_MINUTES };
  }

  /** Retries the listed e-mails named (all of them when `ids` is null); answers how many were put back in the queue. */
  async retry(ctx: RequestContext, ids: readonly number[] | null): Promise<number> {
    const retried = await ctx.em.transactional(async (em) => {
      const rows = await em.execute<{ id: number }[]>(
        `update mail_job j set status = 'queued', due_at = now(), first_attempt_at = case when j.status = 'failed' then null else j.first_attempt_at end, claimed_until = null
          where (${PROBLEM}) and j.status <> 'sending'${ids ? ` and j.id in (${ids.map(() => '?').join(', ') || 'null'})` : ''}
          returning j.id`,
        [NOT_SENT_REFUNDED, ...(ids ?? [])],
      );
      if (rows.length) {
        await this.mail.wake(em);
        const summary = ids && ids.length === 1 ? `Retried e-mail #${rows[0]!.id}` : `Retried ${rows.length} e-mail${rows.length === 1 ? '' : 's'}${ids ? '' : ' (all)'}`;
        await recordAudit(withEm(ctx, em), { entity: 'e-mail', id: rows.length === 1 ? rows[0]!.id : null, action: 'retried', summary });
      }
      return rows.length;
    });
    ctx.log.info({ retried, ids: ids ?? 'all' }, 'e-mails retried');
    return retried;
  }
}

function toProblem(row: Row): EmailProblem {
  return {
    id: Number(row.id),
    kind: row.kind,
    status: row.status,
    recipient: row.recipient,
    orderId: row.order_id,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    dueAt: new Date(row.due_at),
    createdAt: new Date(row.created_at),
  };
}
