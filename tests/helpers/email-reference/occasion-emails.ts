/**
 * The occasion reminder from the address book in the reference's way: MJML with strict validation
 * for every e-mail, values escaped by the reference's own `html`.
 */
import { html } from './escape.js';
import { weekdayText } from './format.js';
import { button, heading, paragraph, renderEmail, type MailContent } from './layout.js';

export interface OccasionReminder {
  contactName: string;
  label: string;
  /** The day of the occasion, YYYY-MM-DD. */
  occasionDay: string;
}

/** "{name}'s {occasion} is on {Wednesday 9 December}", with a link to the shop and a way to stop it. */
export function occasionReminderEmail(to: string, reminder: OccasionReminder, links: { shop: string; stop: string; addressBook: string }): Promise<MailContent> {
  const subject = `${reminder.contactName}'s ${reminder.label} is on ${weekdayText(reminder.occasionDay)}`;
  return renderEmail({
    to,
    subject,
    preview: `Send ${reminder.contactName} a card with a song, delivered on the day at the hour you choose.`,
    body: html`${heading(subject)}
${paragraph(html`A card with a song for <strong>${reminder.contactName}</strong>? Choose one today and have it arrive on the day, at the hour you pick.`)}
${button('Find a card', links.shop)}
${paragraph(html`You asked to be reminded of this in your <a href="${links.addressBook}" style="color:#b0413e">address book</a>. <a href="${links.stop}" style="color:#b0413e">Turn off this reminder</a>.`, { quiet: true })}`,
    text: `${subject}\n\nA card with a song for ${reminder.contactName}? Choose one today and have it arrive on the day, at the hour you pick.\n\nFind a card: ${links.shop}\n\nYou asked to be reminded of this in your address book (${links.addressBook}).\nTurn off this reminder: ${links.stop}`,
  });
}
