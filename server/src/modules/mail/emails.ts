/** The shop's e-mails, built from MJML templates (see ./emails). */
export type { MailContent } from './templates/layout.js';
export { cardEmail, openedEmail, receiptEmail, reminderEmail, thankYouEmail } from './templates/templates.js';
