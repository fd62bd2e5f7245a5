import type { EmailProblem } from '../../../server/src/modules/email-problems/email-problems.types.js';
import { badInput } from '../../../server/src/core/errors.js';
import type { Services } from '../../../server/src/services.js';
import { body, type RouteDef } from '../route.js';

const problemJson = (e: EmailProblem) => ({
  id: e.id,
  kind: e.kind,
  status: e.status,
  recipient: e.recipient,
  order_id: e.orderId,
  attempts: e.attempts,
  last_error: e.lastError,
  due_at: e.dueAt.toISOString(),
  created_at: e.createdAt.toISOString(),
});

/** The admins' failed and long-waiting e-mail (contract section 13's "E-mail" view), over REST too. */
export function emailProblemRoutes({ emailProblems }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/emails',
      access: 'admin',
      async handler(ctx, _req, res) {
        const { emails, totalCount } = await emailProblems.list(ctx);
        res.json({ emails: emails.map(problemJson), total: totalCount });
      },
    },
    {
      method: 'post',
      path: '/admin/emails/retry',
      access: 'admin',
      async handler(ctx, req, res) {
        const ids = body(req).ids;
        if (ids !== undefined && ids !== null && (!Array.isArray(ids) || !ids.every((id) => Number.isSafeInteger(id) && id > 0))) throw badInput('ids must be a list of e-mail ids (or left out for all).', 'ids');
        res.json({ retried: await emailProblems.retry(ctx, (ids as number[] | undefined) ?? null) });
      },
    },
  ];
}
