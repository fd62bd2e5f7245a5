import type { EntityManager } from '@mikro-orm/postgresql';
import { button, DEFAULT_SHOP_IDENTITY, drop, heading, mjml, paragraph, renderEmail, type MailContent, type MailQueue, type ShopIdentity } from '../mail/index.js';

export const WEBHOOK_DISABLED_KIND = 'webhook-disabled';

/** What the admins are told of an endpoint the shop turned off. */
export interface WebhookDisabledNotice {
  endpointId: number;
  url: string;
  /** Since when every delivery to it has failed (ISO). */
  failingSince: string;
}

/** The admins' e-mail about an endpoint that failed for three days and was turned off. */
export function webhookDisabledEmail(to: string, notice: WebhookDisabledNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const subject = 'A webhook endpoint was turned off';
  const link = `${baseUrl}/admindash?view=webhooks&endpoint=${notice.endpointId}`;
  const since = new Date(notice.failingSince).toISOString().slice(0, 16).replace('T', ' ');
  const what = `Every delivery to ${notice.url} has failed since ${since} UTC, so ${shop.name} stopped sending events to it.`;
  const next = 'Its recent deliveries show what it answered. Once it works again, turn it back on and redeliver the events it missed.';
  return renderEmail({
    to,
    subject,
    preview: what,
    body: mjml`${heading(subject)}
${paragraph(what)}
${paragraph(next)}
${button('See the endpoint', link)}
${paragraph(`You receive this e-mail because you are an admin of ${shop.name}.`, { quiet: true })}`,
    text: `${subject}\n\n${what}\n\n${next}\n\nSee the endpoint: ${link}\n\nYou receive this e-mail because you are an admin of ${shop.name}.`,
    shop,
  });
}

/** Registers the admins' e-mail about a turned-off endpoint. */
export function registerWebhookEmails(mail: MailQueue, baseUrl: string): void {
  mail.register<WebhookDisabledNotice>({
    kind: WEBHOOK_DISABLED_KIND,
    render: (jobs, { shop }) => Promise.all(jobs.map((job) => (job.to ? webhookDisabledEmail(job.to, job.payload, baseUrl, shop) : drop()))),
  });
}

/** Queues the e-mail to every admin, in the transaction that turns the endpoint off. */
export async function queueWebhookDisabled(mail: MailQueue, em: EntityManager, admins: readonly string[], notice: WebhookDisabledNotice, now: Date): Promise<void> {
  await mail.enqueueMany(
    em,
    admins.map((to) => ({ kind: WEBHOOK_DISABLED_KIND, to, dueAt: now, payload: notice, subject: { kind: 'webhook', id: notice.endpointId }, dedupeKey: `${WEBHOOK_DISABLED_KIND}:${notice.endpointId}:${to}:${now.toISOString()}` })),
  );
}
