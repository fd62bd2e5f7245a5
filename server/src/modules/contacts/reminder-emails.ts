import type { EntityManager } from '@mikro-orm/postgresql';
import { defineMessages } from '@formatjs/intl';
import { html, SafeHtml } from '../../core/html.js';
import { DEFAULT_LOCALE, INTL_LOCALES, localizedPath, type Locale } from '../../rules/locales.js';
import { DEFAULT_SHOP_IDENTITY, drop, button, heading, mjml, paragraph, renderEmail, type MailQueue, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity, inLanguage, wordsFor } from '../mail/index.js';
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
  /** The shopper's language (English when left out, as in reminders queued before shoppers had one). */
  locale?: Locale;
}

const messages = defineMessages({
  subject: { id: 'mail.occasion.subject', defaultMessage: "{name}'s {occasion} is on {date}" },
  preview: { id: 'mail.occasion.preview', defaultMessage: 'Send {name} a card with a song, delivered on the day at the hour you choose.' },
  body: { id: 'mail.occasion.body', defaultMessage: 'A card with a song for <b>{name}</b>? Choose one today and have it arrive on the day, at the hour you pick.' },
  find: { id: 'mail.occasion.find', defaultMessage: 'Find a card' },
  findText: { id: 'mail.occasion.findText', defaultMessage: 'Find a card: {link}' },
  why: { id: 'mail.occasion.why', defaultMessage: 'You asked to be reminded of this in your <book>address book</book>. <stop>Turn off this reminder</stop>.' },
  whyText: { id: 'mail.occasion.whyText', defaultMessage: 'You asked to be reminded of this in your address book ({link}).' },
  stopText: { id: 'mail.occasion.stopText', defaultMessage: 'Turn off this reminder: {link}' },
});

/** "Wednesday 9 December": the occasion's day as the reminder says it (a calendar day, no zone involved), in a language. */
export function occasionDateText(day: string, locale: Locale = DEFAULT_LOCALE): string {
  return new Intl.DateTimeFormat(locale === DEFAULT_LOCALE ? 'en-GB' : INTL_LOCALES[locale], { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(`${day}T12:00:00Z`));
}

/** The reminder's subject (contract section 12): "{name}'s {occasion} is on {date}". */
export const reminderSubject = (reminder: Pick<ReminderPayload, 'contactName' | 'label' | 'occasionDay' | 'locale'>) =>
  wordsFor(reminder.locale).text(messages.subject, { name: reminder.contactName, occasion: reminder.label, date: occasionDateText(reminder.occasionDay, reminder.locale) });

/** The e-mail that reminds a shopper of an occasion, with a link to the shop and a way to stop it, in the shopper's language. */
export function occasionReminderEmail(to: string, reminder: ReminderPayload, links: { shop: string; stop: string; addressBook: string }, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const words = wordsFor(reminder.locale);
  const subject = reminderSubject(reminder);
  const name = reminder.contactName;
  const link = (href: string) => (inner: string) => html`<a href="${href}" style="color:#b0413e">${new SafeHtml(inner)}</a>`.value;
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.preview, { name }),
    body: mjml`${heading(subject)}
${paragraph(words.html(messages.body, { name }))}
${button(words.text(messages.find), links.shop)}
${paragraph(words.html(messages.why, {}, { book: link(links.addressBook), stop: link(links.stop) }), { quiet: true })}`,
    text: `${subject}\n\n${words.text(messages.body, { name })}\n\n${words.text(messages.findText, { link: links.shop })}\n\n${words.text(messages.whyText, { link: links.addressBook })}\n${words.text(messages.stopText, { link: links.stop })}`,
    shop,
    locale: reminder.locale,
  });
}

/**
 * Registers the occasion reminders with the mail queue and gives the reminders' sweep its way in: a
 * due reminder is queued (one INSERT per sweep batch, deduplicated per occasion and day), then
 * rendered at send time, when an occasion deleted or turned off in the meantime is dropped. Each
 * e-mail carries List-Unsubscribe (RFC 8058 one-click) pointing at the link that turns it off.
 */
export function registerReminderEmails(mail: MailQueue, reminders: OccasionReminders, baseUrl: string): void {
  const links = (occasionId: number, locale: Locale = DEFAULT_LOCALE) => {
    const token = encodeURIComponent(reminders.stopToken(occasionId));
    const page = (path: string) => `${baseUrl}${localizedPath(locale, path)}`;
    return { shop: page('/shop'), stop: page(`/reminders/stop?token=${token}`), oneClick: `${baseUrl}/api/reminders/stop?token=${token}`, addressBook: page('/account/contacts') };
  };

  mail.register<ReminderPayload>({
    kind: OCCASION_REMINDER_KIND,
    async render(jobs: readonly QueuedMail<ReminderPayload>[], { em, shop }: RenderEnv): Promise<RenderOutcome[]> {
      const wanted = await stillWanted(em, jobs.map((job) => job.payload.occasionId));
      return Promise.all(
        jobs.map(async (job) => {
          // Deleted, or turned off since it was queued: no longer needed.
          if (!job.to || !wanted.has(job.payload.occasionId)) return drop();
          const to = links(job.payload.occasionId, job.payload.locale);
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
        payload: { occasionId: reminder.occasionId, contactName: reminder.contactName, label: reminder.label, occasionDay: reminder.occasionDay, ...inLanguage(reminder.locale) },
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
