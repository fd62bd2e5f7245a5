/** The shop's e-mails, built from MJML templates (see ./emails). */
export type { MailContent } from './emails/layout.js';
export { cardEmail, openedEmail, receiptEmail, reminderEmail, thankYouEmail } from './emails/templates.js';
