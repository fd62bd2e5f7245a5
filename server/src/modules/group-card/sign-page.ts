import { defineMessages } from '@formatjs/intl';
import { html, jsonData, SafeHtml } from '../../core/html.js';
import { DEFAULT_LOCALE, INTL_LOCALES, localizedPath, MAX_PERSON_NAME, MAX_SIGNATURE_MESSAGE, MAX_SIGNATURES, type Locale } from '../../rules/index.js';
import { wordsFor, type Words } from '../mail/index.js';
import { SIGN_PAGE_CSS } from './group-card-assets.js';
import { SigningStatus } from './group-card-status.js';
import type { SigningView } from './group-card.service.js';

export { SIGN_PAGE_SCRIPT } from './group-card-assets.js';

/** A deadline as its purchaser set it: in their time zone, named, in the page's language. */
function deadlineText(at: Date, timeZone: string, locale: Locale): string {
  try {
    return new Intl.DateTimeFormat(locale === DEFAULT_LOCALE ? 'en-GB' : INTL_LOCALES[locale], { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone, timeZoneName: 'short' }).format(at);
  } catch {
    return at.toISOString();
  }
}

const messages = defineMessages({
  someoneSpecial: { id: 'mail.groupCard.someoneSpecial', defaultMessage: 'someone special' },
  eyebrow: { id: 'sign.eyebrow', defaultMessage: '{shop} · a group card' },
  heading: { id: 'sign.heading', defaultMessage: 'Sign the card for {recipient}' },
  lede: { id: 'sign.lede', defaultMessage: '{sender} is collecting messages for {recipient}. Add yours: it will be inside the card when it arrives.' },
  coverOf: { id: 'sign.coverOf', defaultMessage: 'The cover of {card}' },
  theCardLabel: { id: 'sign.cardLabel', defaultMessage: 'The card' },
  for: { id: 'sign.facts.for', defaultMessage: 'For' },
  card: { id: 'sign.facts.card', defaultMessage: 'The card' },
  until: { id: 'sign.facts.until', defaultMessage: 'Signatures collected until' },
  signedSoFar: { id: 'sign.facts.signed', defaultMessage: 'Signed so far' },
  signedOf: { id: 'sign.facts.signedOf', defaultMessage: '<count>{signed}</count> of {max}' },
  yours: { id: 'sign.mine.title', defaultMessage: 'Your signature' },
  signed: { id: 'sign.signed', defaultMessage: 'Thank you: your message is on the card.' },
  change: { id: 'sign.mine.change', defaultMessage: 'Change my signature' },
  remove: { id: 'sign.mine.remove', defaultMessage: 'Remove my signature' },
  closed: { id: 'sign.closed', defaultMessage: 'Signing has closed.' },
  full: { id: 'sign.full', defaultMessage: 'This card has {max} signatures, as many as it can hold.' },
  withdrawn: { id: 'sign.withdrawn', defaultMessage: 'Signing has closed. This card was withdrawn.' },
  yourName: { id: 'sign.form.name', defaultMessage: 'Your name' },
  yourMessage: { id: 'sign.form.message', defaultMessage: 'Your message' },
  cancel: { id: 'sign.form.cancel', defaultMessage: 'Cancel' },
  sign: { id: 'sign.form.sign', defaultMessage: 'Sign the card' },
  signedBy: { id: 'sign.names', defaultMessage: 'Signed by' },
  footer: { id: 'ecard.footer', defaultMessage: '<home>{shop}</home> — beautiful greetings without the wait.' },
  title: { id: 'sign.title', defaultMessage: 'Sign the card for {recipient} — {shop}' },
  notFoundTitle: { id: 'sign.notFound.title', defaultMessage: 'Signing link not found — {shop}' },
  notFound: { id: 'ecard.notFound.title', defaultMessage: 'We could not find this card' },
  notFoundText: { id: 'sign.notFound.text', defaultMessage: 'The signing link may be incomplete. Check that you copied the whole address.' },
  visit: { id: 'ecard.notice.visit', defaultMessage: 'Visit {shop}' },
  // What the page's script says (sign-page.script.js), handed to it in the page.
  save: { id: 'sign.script.save', defaultMessage: 'Save changes' },
  tryAgain: { id: 'sign.script.tryAgain', defaultMessage: 'That did not work. Please try again.' },
  nameMissing: { id: 'ecard.thanks.nameMissing', defaultMessage: 'Please write your name.' },
  messageMissing: { id: 'ecard.thanks.messageMissing', defaultMessage: 'Please write a message.' },
  gone: { id: 'sign.script.gone', defaultMessage: 'Your signature is no longer on the card. You can sign it again.' },
  offline: { id: 'sign.script.offline', defaultMessage: 'The card could not be reached. Check your connection and try again.' },
  confirmRemove: { id: 'sign.script.confirmRemove', defaultMessage: 'Remove your signature from the card?' },
});

/** What a signer reads when the card takes no more signatures (here and in its errors). */
export const SIGNING_CLOSED = { closed: messages.closed, full: messages.full, withdrawn: messages.withdrawn };

/** The sample messages a signing page suggests (rules/group-card.ts chooses one by the card's occasion), in each language. */
const samples = Object.values(
  defineMessages({
    christmas: { id: 'sign.sample.christmas', defaultMessage: 'Merry Christmas! Wishing you a wonderful holiday season.' },
    newYear: { id: 'sign.sample.newYear', defaultMessage: 'Happy New Year! Here is to a wonderful year ahead.' },
    birthday: { id: 'sign.sample.birthday', defaultMessage: 'Happy birthday! It has been a joy to work with you.' },
    wedding: { id: 'sign.sample.wedding', defaultMessage: 'Congratulations! Wishing you both every happiness.' },
    anniversary: { id: 'sign.sample.anniversary', defaultMessage: 'Happy anniversary! Here is to many more years.' },
    baby: { id: 'sign.sample.baby', defaultMessage: 'Congratulations on your little one!' },
    sympathy: { id: 'sign.sample.sympathy', defaultMessage: 'Thinking of you, with love.' },
    getWell: { id: 'sign.sample.getWell', defaultMessage: 'Get well soon! We are all thinking of you.' },
    farewell: { id: 'sign.sample.farewell', defaultMessage: 'Good luck with what comes next. We will miss you!' },
    graduation: { id: 'sign.sample.graduation', defaultMessage: 'Congratulations, graduate! We are so proud of you.' },
    thanks: { id: 'sign.sample.thanks', defaultMessage: 'Thank you so much for everything you do.' },
    love: { id: 'sign.sample.love', defaultMessage: 'Thinking of you today and always.' },
    mother: { id: 'sign.sample.mother', defaultMessage: "Happy Mother's Day! Thank you for everything." },
    father: { id: 'sign.sample.father', defaultMessage: "Happy Father's Day! Thank you for everything." },
    easter: { id: 'sign.sample.easter', defaultMessage: 'Happy Easter! Wishing you a lovely spring.' },
    any: { id: 'sign.sample.any', defaultMessage: 'Wishing you all the very best. It has been a joy to know you.' },
  }),
);

/** The sample message in the page's language (as it is when it has no translation). */
function sampleIn(words: Words, sample: string): string {
  const message = samples.find((candidate) => candidate.defaultMessage === sample);
  return message ? words.text(message) : sample;
}

function statusText(status: Exclude<SigningStatus, SigningStatus.OPEN>, words: Words): string {
  if (status === SigningStatus.FULL) return words.text(messages.full, { max: MAX_SIGNATURES });
  return words.text(status === SigningStatus.WITHDRAWN ? messages.withdrawn : messages.closed);
}

/** What the script says, in the page's language. */
function scriptWords(words: Words): Record<string, string> {
  return {
    save: words.text(messages.save),
    sign: words.text(messages.sign),
    tryAgain: words.text(messages.tryAgain),
    nameMissing: words.text(messages.nameMissing),
    messageMissing: words.text(messages.messageMissing),
    gone: words.text(messages.gone),
    offline: words.text(messages.offline),
    confirmRemove: words.text(messages.confirmRemove),
  };
}

const SHOP = 'Art & Song Cards';

/**
 * `/sign/{token}`: one light document for phones (its styles inline, one small script at
 * /sign/sign.js, no framework): the card's cover, whom it is for and the deadline, then "Your name",
 * "Your message" and "Sign the card" while the card takes signatures. The script signs through
 * `POST /api/sign/{token}/signatures` and keeps the signature's edit token in the browser's storage
 * (never in the address), so the same browser can change or remove it until the deadline.
 */
export function renderSignPage(view: SigningView, token: string): string {
  const { card, item, status, signatures } = view;
  const locale = item.order?.locale ?? DEFAULT_LOCALE;
  const words = wordsFor(locale);
  const say = words.text.bind(words);
  const recipient = item.recipientName ?? say(messages.someoneSpecial);
  const cover = item.card?.cover ?? null;
  const open = status === SigningStatus.OPEN;
  // While the card takes changes, the script may show the signer their own signature to change.
  const editable = status === SigningStatus.OPEN || status === SigningStatus.FULL;
  const body = html`<main class="sign" data-api="/api/sign/${token}" data-status="${status}"${editable ? new SafeHtml(' data-editable') : ''}>
  <header>
    <p class="eyebrow">${say(messages.eyebrow, { shop: SHOP })}</p>
    <h1>${say(messages.heading, { recipient })}</h1>
    ${item.senderName ? html`<p class="lede">${say(messages.lede, { sender: item.senderName, recipient })}</p>` : ''}
  </header>
  <div class="card-row">
    ${cover ? html`<img class="cover" src="/api/${cover.path}" alt="${say(messages.coverOf, { card: item.name })}" ${cover.width && cover.height ? html`width="${cover.width}" height="${cover.height}"` : ''} decoding="async">` : html`<div class="cover blank" role="img" aria-label="${say(messages.theCardLabel)}"></div>`}
    <dl class="facts">
      <dt>${say(messages.for)}</dt><dd>${recipient}</dd>
      <dt>${say(messages.card)}</dt><dd>${item.name}</dd>
      <dt>${say(messages.until)}</dt><dd><time datetime="${card.collectUntil.toISOString()}">${deadlineText(card.collectUntil, item.timeZone ?? 'UTC', locale)}</time></dd>
      <dt>${say(messages.signedSoFar)}</dt><dd>${words.html(messages.signedOf, { signed: signatures.length, max: MAX_SIGNATURES }, { count: (inner) => `<span class="signed-count">${inner}</span>` })}</dd>
    </dl>
  </div>
  <section class="mine" aria-labelledby="mine-title" hidden>
    <h2 id="mine-title">${say(messages.yours)}</h2>
    <p class="done" role="status">${say(messages.signed)}</p>
    <blockquote class="mine-message"></blockquote>
    <p class="mine-name"></p>
    <div class="row mine-actions"${editable ? '' : new SafeHtml(' hidden')}><button type="button" class="secondary" data-action="edit">${say(messages.change)}</button><button type="button" class="secondary" data-action="remove">${say(messages.remove)}</button></div>
    <p class="error mine-error" role="alert" hidden></p>
  </section>
  ${open ? '' : html`<p class="closed" role="status">${statusText(status as Exclude<SigningStatus, SigningStatus.OPEN>, words)}</p>`}
  <form class="sign-form" novalidate${open ? '' : new SafeHtml(' hidden')}>
    <label>${say(messages.yourName)}<input name="name" maxlength="${String(MAX_PERSON_NAME)}" required autocomplete="name"></label>
    <label>${say(messages.yourMessage)}<textarea name="message" maxlength="${String(MAX_SIGNATURE_MESSAGE)}" rows="5" required placeholder="${sampleIn(words, view.sample)}"></textarea></label>
    <div class="row"><span class="count" aria-live="polite">0 / ${String(MAX_SIGNATURE_MESSAGE)}</span><span class="buttons"><button type="button" class="secondary cancel" hidden>${say(messages.cancel)}</button><button type="submit">${say(messages.sign)}</button></span></div>
    <p class="error" role="alert" hidden></p>
  </form>
  <section class="names" aria-labelledby="names-title"${signatures.length ? '' : new SafeHtml(' hidden')}>
    <h2 id="names-title">${say(messages.signedBy)}</h2>
    <ul>${signatures.map((signature) => html`<li data-id="${String(signature.id)}">${signature.name}</li>`)}</ul>
  </section>
  <footer>${words.html(messages.footer, { shop: 'Art & Song Cards' }, { home: (inner) => html`<a href="${localizedPath(locale, '/')}">${new SafeHtml(inner)}</a>`.value })}</footer>
</main>`;
  return html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${say(messages.title, { recipient, shop: SHOP })}</title>
${cover ? html`<link rel="preload" as="image" href="/api/${cover.path}">` : ''}
<style>${new SafeHtml(SIGN_PAGE_CSS)}</style>
</head>
<body>${body}
${jsonData('page-words', scriptWords(words))}
<script src="/sign/sign.js" defer></script>
</body>
</html>`.value;
}

/** The friendly page for a signing link that names no card. */
export function renderSignNotFound(locale: Locale = DEFAULT_LOCALE): string {
  const say = wordsFor(locale).text.bind(wordsFor(locale));
  return html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${say(messages.notFoundTitle, { shop: SHOP })}</title>
<style>${new SafeHtml(SIGN_PAGE_CSS)}</style></head>
<body><main class="sign"><header><h1>${say(messages.notFound)}</h1><p class="lede">${say(messages.notFoundText)}</p></header><footer><a href="${localizedPath(locale, '/')}">${say(messages.visit, { shop: SHOP })}</a></footer></main></body></html>`.value;
}
