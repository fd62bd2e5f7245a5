/** The mail module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { ANY_STATUS, MailJobStatus, drop, enqueueSql, wakeSql, withhold, type EnqueueInput, type JobBatch, type MailJobView, type MailQueue, type MailRef, type ProblemsQuery, type QueuedMail, type RenderEnv, type RenderOutcome } from './mail-queue.js';
export { formatDay, formatMoment } from './templates/format.js';
export { DEFAULT_SHOP_IDENTITY, type ShopIdentity } from './templates/shop-identity.js';
export { button, heading, mjml, paragraph, quote, renderEmail, type MailContent, type MailTemplate } from './templates/layout.js';
export { inLanguage, Words, wordsFor, type Locale, type MessageValues } from './templates/mail-words.js';
