import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_SHOP_IDENTITY, drop, button, heading, mjml, paragraph, renderEmail, type MailQueue, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity } from '../mail/index.js';
import type { DueReminder, OccasionReminders } from './occasion-reminders.js';

/** The kind of the occasion reminders in the mail queue. */
export const OCCASION_REMINDER_KIND = 'occasion-reminder';

/** What a reminder's job carries: enough to write it, and the occasion to check it is still wanted. */
export interface ReminderPayload {
  occasionId: number;
  contactName: string;
  label: string;
  /** The day of the occasion, YYYY-MM-DD. */
  occasionDay: string;
}

/** "Wednesday 9 December": the occasion's day as the reminder says it (a calendar day, no zone involved). */
export function occasionDateText(day: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(`${day}T12:00:00Z`));
}

/** The reminder's subject (contract section 12): "{name}'s {occasion} is on {date}". */
export const reminderSubject = (reminder: Pick<ReminderPayload, 'contactName' | 'label' | 'occasionDay'>) => `${reminder.contactName}'s ${reminder.label} is on ${occasionDateText(reminder.occasionDay)}`;

/** The e-mail that reminds a shopper of an occasion, with a link to the shop and a way to stop it. */
export function occasionReminderEmail(to: string, reminder: ReminderPayload, links: { shop: string; stop: string; addressBook: string }, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const subject = reminderSubject(reminder);
  return renderEmail({
    to,
    subject,
    preview: `Send ${reminder.contactName} a card with a song, delivered on the day at the hour you choose.`,
    body: mjml`${heading(subject)}
${paragraph(mjml`A card with a song for <strong>${reminder.contactName}</strong>? Choose one today and have it arrive on the day, at the hour you pick.`)}
${button('Find a card', links.shop)}
${paragraph(mjml`You asked to be reminded of this in your <a href="${links.addressBook}" style="color:#b0413e">address book</a>. <a href="${links.stop}" style="color:#b0413e">Turn off this reminder</a>.`, { quiet: true })}`,
    text: `${subject}\n\nA card with a song for ${reminder.contactName}? Choose one today and have it arrive on the day, at the hour you pick.\n\nFind a card: ${links.shop}\n\nYou asked to be reminded of this in your address book (${links.addressBook}).\nTurn off this reminder: ${links.stop}`,
    shop,
  });
}

/**
 * Registers the occasion reminders with the mail queue and gives the reminders' sweep its way in: a
 * due reminder is queued (one INSERT per sweep batch, deduplicated per occasion and day), then
 * rendered at send time, when an occasion deleted or turned off in the meantime is dropped. Each
 * e-mail carries List-Unsubscribe (RFC 8058 one-click) pointing at the link that turns it off.
 */
export function registerReminderEmails(mail: MailQueue, reminders: OccasionReminders, baseUrl: string): void {
  const links = (occasionId: number) => {
    const token = encodeURIComponent(reminders.stopToken(occasionId));
    return { shop: `${baseUrl}/shop`, stop: `${baseUrl}/reminders/stop?token=${token}`, oneClick: `${baseUrl}/api/reminders/stop?token=${token}`, addressBook: `${baseUrl}/account/contacts` };
  };

  mail.register<ReminderPayload>({
    kind: OCCASION_REMINDER_KIND,
    async render(jobs: readonly QueuedMail<ReminderPayload>[], { em, shop }: RenderEnv): Promise<RenderOutcome[]> {
      const wanted = await stillWanted(em, jobs.map((job) => job.payload.occasionId));
      return Promise.all(
        jobs.map(async (job) => {
          // Deleted, or turned off since it was queued: no longer needed.
          if (!job.to || !wanted.has(job.payload.occasionId)) return drop();
          const to = links(job.payload.occasionId);
          const content = await occasionReminderEmail(job.to, job.payload, to, shop);
          return { ...content, headers: { 'List-Unsubscribe': `<${to.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
        }),
      );
    },
  });

  reminders.queue = async (tx, due: readonly DueReminder[]) => {
    await mail.enqueueMany(
      tx,
      due.map((reminder) => ({
        kind: OCCASION_REMINDER_KIND,
        to: reminder.to,
        dueAt: reminder.dueAt,
        ref: { kind: 'occasion', id: reminder.occasionId },
        dedupeKey: `occasion:${reminder.occasionId}:${reminder.occasionDay}`,
        payload: { occasionId: reminder.occasionId, contactName: reminder.contactName, label: reminder.label, occasionDay: reminder.occasionDay },
      })),
    );
  };
}

/** The occasions of a batch whose reminders are still on: one query. */
async function stillWanted(em: EntityManager, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await em.execute<{ id: number }[]>('select id from contact_occasion where remind and id in (?)', [[...new Set(ids)]]);
  return new Set(rows.map((row) => Number(row.id)));
}
