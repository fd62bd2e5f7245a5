import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { groupByKind, type Claimed } from './delivery-claim.js';
import { reasonOf, type Settler } from './delivery-settle.js';
import { isWithheld, type MailMessage, type OutgoingEntry, type RenderEnv, type RenderOutcome } from './mail-kind.js';
import type { MailQueue } from './mail-queue.js';

/** An e-mail rendered and waiting for a lane. */
export interface Ready {
  job: Claimed;
  mail: MailMessage & { to: string; headers: Record<string, string> };
}

/** Renders a batch, kind by kind, then runs the filters; what is not to be sent goes straight to the settler. */
export async function compose(queue: MailQueue, orm: MikroORM, claimed: Claimed[], settler: Settler, log: Logger): Promise<Ready[]> {
  // Taken by the mail server already (its worker died before settling them): settled, never sent again.
  for (const job of claimed) if (job.sentAt) settler.add({ job, type: 'sent' });
  const jobs = claimed.filter((job) => !job.sentAt);
  if (!jobs.length) return [];
  const em = orm.em.fork();
  let shop;
  try {
    shop = await queue.shopIdentity(em);
  } catch (error) {
    // Without the shop's name nothing is rendered: the batch fails as a failed send would (retried later).
    log.error({ err: error, jobs: jobs.length }, "the shop's settings could not be read for its e-mail");
    for (const job of jobs) settler.add({ job, type: 'failed', error: reasonOf(error) });
    return [];
  }
  const env: RenderEnv = { em, now: jobs[0]!.claimedAt, shop };
  const fromName = shop.senderName ?? undefined;
  const ready: Ready[] = [];
  for (const [kind, group] of groupByKind(jobs)) {
    const definition = queue.definition(kind);
    let rendered: RenderOutcome[];
    try {
      if (!definition) throw new Error(`No renderer for the e-mail kind "${kind}" in this process`);
      rendered = await definition.render(group, env);
      if (rendered.length !== group.length) throw new Error(`The renderer of "${kind}" answered ${rendered.length} e-mails for ${group.length} jobs`);
    } catch (error) {
      log.error({ err: error, kind, jobs: group.length }, 'e-mails could not be rendered');
      for (const job of group) settler.add({ job, type: 'failed', error: reasonOf(error) });
      continue;
    }
    group.forEach((job, index) => {
      const outcome = rendered[index]!;
      const to = isWithheld(outcome) ? null : (outcome.to ?? job.to);
      if (isWithheld(outcome)) settler.add({ job, type: 'withheld', reason: outcome.reason });
      else if (!to) settler.add({ job, type: 'failed', error: 'No recipient address' });
      else ready.push({ job, mail: { ...outcome, to, fromName, headers: { ...outcome.headers } } });
    });
  }
  if (!queue.filters.length || !ready.length) return ready;
  const verdicts = new Map<number, string | null>();
  const entries: OutgoingEntry[] = ready.map(({ job, mail }) => ({
    job,
    mail,
    withhold: (reason: string) => void verdicts.set(job.id, reason),
    drop: () => void verdicts.set(job.id, null),
  }));
  try {
    for (const filter of queue.filters) await filter(entries, env);
  } catch (error) {
    log.error({ err: error }, 'an e-mail filter failed');
    for (const { job } of ready) settler.add({ job, type: 'failed', error: reasonOf(error) });
    return [];
  }
  for (const { job } of ready) if (verdicts.has(job.id)) settler.add({ job, type: 'withheld', reason: verdicts.get(job.id)! });
  return ready.filter(({ job }) => !verdicts.has(job.id));
}
