import { defineMessages } from '@formatjs/intl';
import { html } from '../../core/html.js';
import { localizedPath, type Locale } from '../../rules/index.js';
import { wordsFor } from '../mail/index.js';

export const WITHDRAWN_TEXT = 'This card was withdrawn';

const messages = defineMessages({
  withdrawn: { id: 'ecard.withdrawn.title', defaultMessage: 'This card was withdrawn' },
  withdrawnText: { id: 'ecard.withdrawn.text', defaultMessage: "The sender's order was cancelled and refunded, so this card is no longer available." },
  expired: { id: 'ecard.expired.title', defaultMessage: 'This preview has expired' },
  expiredText: { id: 'ecard.expired.text', defaultMessage: 'A test card shows for a week after it is sent. Send yourself a new test from the card in the shop.' },
  visit: { id: 'ecard.notice.visit', defaultMessage: 'Visit {shop}' },
});

/** A short page in the e-card page's colours where a card cannot be shown: a title, a sentence and the way to the shop, in a language. */
export function renderEcardNotice(title: string, text: string, locale: Locale = 'en'): string {
  return html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${title} — Art &amp; Song Cards</title>
<style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:radial-gradient(circle at 30% 20%,#3a2b4a,#17131f 70%);color:#f3ece2;font-family:Georgia,serif;text-align:center;padding:24px}h1{font-weight:normal}a{color:#f0b27a}</style></head>
<body><main><h1>${title}</h1><p>${text}</p><p><a href="${localizedPath(locale, '/')}">${wordsFor(locale).text(messages.visit, { shop: 'Art & Song Cards' })}</a></p></main></body></html>`.value;
}

/** The page of a card whose order was refunded, in the order's language. */
export const renderEcardWithdrawn = (locale?: Locale): string => renderEcardNotice(wordsFor(locale).text(messages.withdrawn), wordsFor(locale).text(messages.withdrawnText), locale);

/** The page of a test e-mail's link that no longer opens its preview. */
export const renderPreviewExpired = (locale?: Locale): string => renderEcardNotice(wordsFor(locale).text(messages.expired), wordsFor(locale).text(messages.expiredText), locale);
