import { withEm, type RequestContext } from '../../core/context.js';
import { recordAudit } from '../audit/index.js';
import type { MailJobView, MailQueue, ProblemsQuery } from '../mail/index.js';
import { orderIdOf, NOT_SENT_REFUNDED } from '../orders/index.js';
import type { EmailProblem, EmailProblems } from './email-problems.types.js';

/** A due e-mail still unsent this long after its time is listed as waiting. */
export const WAITING_AFTER_MINUTES = 15;
const LIMIT = 500;
/** A card a refund stopped was withheld on purpose: not a problem to retry. */
const QUERY: ProblemsQuery = { waitingAfterMinutes: WAITING_AFTER_MINUTES, ignoreReasons: [NOT_SENT_REFUNDED] };

/**
 * The admins' view of e-mail that did not go out: failed ones (the queue gave up after retrying for
 * days) and ones waiting long past their time, with the reason, and "Retry" for one or all. The queue
 * lists them and puts them back; this view names the order each one belongs to and audits the retries.
 */
export class EmailProblemsService {
  constructor(private readonly mail: Pick<MailQueue, 'problems' | 'retryProblems'>) {}

  async list(ctx: RequestContext): Promise<EmailProblems> {
    const { jobs, totalCount } = await this.mail.problems(ctx.em, { ...QUERY, limit: LIMIT });
    return { emails: jobs.map(toProblem), totalCount, waitingAfterMinutes: WAITING_AFTER_MINUTES };
  }

  /** Retries the listed e-mails named (all of them when `ids` is null); answers how many were put back in the queue. */
  async retry(ctx: RequestContext, ids: readonly number[] | null): Promise<number> {
    const retried = await ctx.em.transactional(async (em) => {
      const rows = await this.mail.retryProblems(em, QUERY, ids);
      if (rows.length) {
        const summary = ids && ids.length === 1 ? `Retried e-mail #${rows[0]!}` : `Retried ${rows.length} e-mail${rows.length === 1 ? '' : 's'}${ids ? '' : ' (all)'}`;
        await recordAudit(withEm(ctx, em), { entity: 'e-mail', id: rows.length === 1 ? rows[0]! : null, action: 'retried', summary });
      }
      return rows.length;
    });
    ctx.log.info({ retried, ids: ids ?? 'all' }, 'e-mails retried');
    return retried;
  }
}

function toProblem(job: MailJobView): EmailProblem {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    recipient: job.to,
    orderId: orderIdOf(job),
    attempts: job.attempts,
    lastError: job.lastError,
    dueAt: job.dueAt,
    createdAt: job.createdAt,
  };
}
