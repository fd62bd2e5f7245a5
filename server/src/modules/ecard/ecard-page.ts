import { defineMessages } from '@formatjs/intl';
import { html, jsonData, SafeHtml } from '../../core/html.js';
import { localizedPath, songTitle, type Locale } from '../../rules/index.js';
import type { CardMedia, OrderItem } from '../orders/index.js';
import { wordsFor, type Words } from '../mail/index.js';

/**
 * What the page shows of a card: a card that was bought (in the language of its order), or one
 * previewed before it is (checkout's card-preview.ts).
 */
export type EcardView = Pick<OrderItem, 'card' | 'name' | 'recipientName' | 'senderName' | 'message' | 'deliveredAt' | 'itemUrlUuid'> & { order?: { locale?: Locale } };
import { ECARD_CSS, fontCss } from './ecard-assets.js';
import { renderEcardNotice } from './ecard-withdrawn.js';
import { signaturePagesCss, signedInside, type CardSignature } from '../group-card/index.js';

export { ECARD_SCRIPT } from './ecard-assets.js';

/** The font service's stylesheet of a family (spaces as plus signs, swap display), as the client loads it. */
const fontStylesheet = (family: string) => `https://fonts.googleapis.com/css2?family=${family.trim().split(/\s+/).map(encodeURIComponent).join('+')}&display=swap`;

const src = (media: CardMedia) => `/api/${media.path}`;

const messages = defineMessages({
  title: { id: 'ecard.title', defaultMessage: 'A card for {recipient} from {sender}' },
  greeting: { id: 'ecard.greeting', defaultMessage: 'The greeting' },
  previewLabel: { id: 'ecard.preview.label', defaultMessage: 'Preview: this is how the card will look' },
  preview: { id: 'ecard.preview', defaultMessage: 'Preview' },
  heading: { id: 'ecard.heading', defaultMessage: '{sender} sent you a card, {recipient}' },
  back: { id: 'ecard.back', defaultMessage: 'The back of the card' },
  openFor: { id: 'ecard.cover.label', defaultMessage: 'Open the card for {recipient}' },
  hint: { id: 'ecard.cover.hint', defaultMessage: 'Open the card' },
  coverFor: { id: 'ecard.cover.for', defaultMessage: 'For {recipient}' },
  controls: { id: 'ecard.controls', defaultMessage: 'Card' },
  open: { id: 'ecard.controls.open', defaultMessage: 'Open' },
  turn: { id: 'ecard.controls.turn', defaultMessage: 'Turn over' },
  close: { id: 'ecard.controls.close', defaultMessage: 'Close' },
  songs: { id: 'ecard.songs', defaultMessage: 'Songs' },
  extras: { id: 'ecard.extras', defaultMessage: 'More pictures' },
  picture: { id: 'ecard.extras.picture', defaultMessage: 'Picture {number}' },
  footer: { id: 'ecard.footer', defaultMessage: '<home>{shop}</home> — beautiful greetings without the wait.' },
  notFound: { id: 'ecard.notFound.title', defaultMessage: 'We could not find this card' },
  notFoundText: { id: 'ecard.notFound.text', defaultMessage: 'The link may be incomplete. Check that you copied the whole address from your e-mail.' },
  thanks: { id: 'ecard.thanks.title', defaultMessage: 'Send a thank-you' },
  thanksAll: { id: 'ecard.thanks.all', defaultMessage: 'This card has received all its thank-yous.' },
  thanksName: { id: 'ecard.thanks.name', defaultMessage: 'Your name' },
  thanksMessage: { id: 'ecard.thanks.message', defaultMessage: 'Message' },
  thanksPlaceholder: { id: 'ecard.thanks.placeholder', defaultMessage: 'Thank you so much for the card!' },
  thanksSend: { id: 'ecard.thanks.send', defaultMessage: 'Send' },
  thanksSent: { id: 'ecard.thanks.sent', defaultMessage: 'Thank-you sent' },
  play: { id: 'ecard.song.play', defaultMessage: 'Play {title}' },
  pause: { id: 'ecard.song.pause', defaultMessage: 'Pause {title}' },
  position: { id: 'ecard.song.position', defaultMessage: 'Position in {title}' },
  timeOf: { id: 'ecard.song.timeOf', defaultMessage: '{at} of {length}' },
  nameMissing: { id: 'ecard.thanks.nameMissing', defaultMessage: 'Please write your name.' },
  messageMissing: { id: 'ecard.thanks.messageMissing', defaultMessage: 'Please write a message.' },
  sendFailed: { id: 'ecard.thanks.failed', defaultMessage: 'The thank-you could not be sent. Please try again.' },
  offline: { id: 'ecard.thanks.offline', defaultMessage: 'The thank-you could not be sent. Check your connection and try again.' },
  pageOf: { id: 'ecard.pages.pageOf', defaultMessage: 'Page {page} of {count}' },
});

/**
 * What the page's script says (ecard-page.script.js), in the page's language: each message with its
 * placeholders left in braces for the script to fill.
 */
function scriptWords(words: Words): Record<string, string> {
  const keep = (name: string) => `{${name}}`;
  return {
    nameMissing: words.text(messages.nameMissing),
    messageMissing: words.text(messages.messageMissing),
    sendFailed: words.text(messages.sendFailed),
    offline: words.text(messages.offline),
    pageOf: words.text(messages.pageOf, { page: keep('page'), count: keep('count') }),
    play: words.text(messages.play, { title: keep('title') }),
    pause: words.text(messages.pause, { title: keep('title') }),
    timeOf: words.text(messages.timeOf, { at: keep('at'), length: keep('length') }),
  };
}

const image = (media: CardMedia | null, alt: string, className = '') =>
  media ? html`<img class="${className}" src="${src(media)}" alt="${alt}" ${media.width && media.height ? html`width="${media.width}" height="${media.height}"` : ''} decoding="async">` : html`<div class="${className} blank" role="img" aria-label="${alt}"></div>`;

/**
 * The page a recipient opens: a standalone document (its styles inline, one small script) with the
 * cover that opens onto the greeting image and the personal message in its place and font, the back,
 * the extra pictures and the card's songs. The card is the markup of the site's previews
 * (OpeningCard.tsx, CardPreview.tsx in web/) drawn by the same stylesheet (opening-card.css).
 */
export function renderEcardPage(item: EcardView, options: { preview: boolean; repliesLeft: number; signatures?: readonly CardSignature[]; locale?: Locale } = { preview: true, repliesLeft: 0 }): string {
  const card = item.card!;
  const locale = options.locale ?? item.order?.locale ?? 'en';
  const words = wordsFor(locale);
  const say = words.text.bind(words);
  // Only a card that has arrived reports its opening and takes thank-yous; a preview never does.
  const live = !options.preview && Boolean(item.deliveredAt);
  // Font names are letters, digits and spaces (the catalogue checks it); kept so here, they are safe in CSS.
  const family = (card.fontName ?? '').replace(/[^A-Za-z0-9 ]/g, '').trim();
  const ratio = card.cover?.width && card.cover.height ? `${card.cover.width} / ${card.cover.height}` : '3 / 4';
  const title = say(messages.title, { recipient: item.recipientName, sender: item.senderName });
  const greetingPage = html`${image(card.greeting, say(messages.greeting), 'page-image')}
      <div class="message placement-${card.messageLocation}"><p>${item.message ?? ''}</p></div>`;
  // A group card's signatures follow the greeting on pages of their own (see group-card/signature-pages.ts).
  const signed = options.signatures?.length ? signedInside(greetingPage, options.signatures, heightOverWidth(card.cover), locale) : null;
  // A preview says so in a corner ribbon, whoever looks at it (the sender before buying, the purchaser, an admin).
  const body: SafeHtml = html`
${options.preview ? html`<p class="preview-ribbon" role="note" aria-label="${say(messages.previewLabel)}">${say(messages.preview)}</p>` : ''}
<main class="stage" data-state="closed">
  <header class="intro">
    <p class="eyebrow">Art &amp; Song Cards</p>
    <h1>${say(messages.heading, { sender: item.senderName, recipient: item.recipientName })}</h1>
  </header>
  <div class="card-book spread" style="--ratio: ${ratio}">
    ${signed?.inside ?? html`<div class="inside">
      ${greetingPage}
    </div>`}
    <div class="back">${image(card.back, say(messages.back), 'page-image')}</div>
    <button class="cover" type="button" aria-label="${say(messages.openFor, { recipient: item.recipientName })}">
      <span class="cover-front">${image(card.cover, item.name, 'page-image')}<span class="hint">${say(messages.hint)}</span></span>
      <span class="cover-inner"><span>${say(messages.coverFor, { recipient: item.recipientName })}</span></span>
    </button>
  </div>
  <nav class="controls" aria-label="${say(messages.controls)}">
    <button type="button" data-go="open">${say(messages.open)}</button>
    <button type="button" data-go="back">${say(messages.turn)}</button>
    <button type="button" data-go="closed">${say(messages.close)}</button>
  </nav>
  ${signed?.pager ?? ''}
  ${card.songs.length ? html`<section class="songs" aria-label="${say(messages.songs)}"><h2>${say(messages.songs)}</h2>${card.songs.map((song, i) => songPlayer(songTitle(song.name), src(song), i === 0, words))}</section>` : ''}
  ${card.extras.length ? html`<section class="extras" aria-label="${say(messages.extras)}">${card.extras.map((extra, i) => image(extra, say(messages.picture, { number: i + 1 }), 'extra'))}</section>` : ''}
  ${live ? thankYouSection(item, options.repliesLeft, words) : ''}
  <footer>${words.html(messages.footer, { shop: 'Art & Song Cards' }, { home: (inner) => html`<a href="${localizedPath(locale, '/')}">${new SafeHtml(inner)}</a>`.value })}</footer>
</main>`;

  return html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
${family ? html`<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin><link rel="stylesheet" href="${fontStylesheet(family)}">` : ''}
${card.cover ? html`<link rel="preload" as="image" href="${src(card.cover)}">` : ''}
<style>
${new SafeHtml(ECARD_CSS)}
${new SafeHtml(fontCss(family))}
${signed ? new SafeHtml(signaturePagesCss(family)) : ''}
</style>
</head>
<body${!live ? '' : html` data-opened="/api/ecards/${item.itemUrlUuid!}/opened"`}>${body}
${jsonData('page-words', scriptWords(words))}
<script src="/ecards/ecard.js" defer></script>
</body>
</html>`.value;
}

/** A card's height over its width, from its cover (a portrait card's 4 / 3 without one). */
const heightOverWidth = (cover: CardMedia | null) => (cover?.width && cover.height ? cover.height / cover.width : 4 / 3);

/** The friendly page for a card that does not exist. */
export const renderEcardNotFound = (locale?: Locale): string => renderEcardNotice(wordsFor(locale).text(messages.notFound), wordsFor(locale).text(messages.notFoundText), locale);

/** "Send a thank-you": the recipient's name and a plain-text message, while the card can take one. */
function thankYouSection(item: EcardView, repliesLeft: number, words: Words): SafeHtml {
  const say = words.text.bind(words);
  if (repliesLeft <= 0) {
    return html`<section class="thanks" aria-labelledby="thanks-title"><h2 id="thanks-title">${say(messages.thanks)}</h2><p class="thanks-done">${say(messages.thanksAll)}</p></section>`;
  }
  return html`<section class="thanks" aria-labelledby="thanks-title">
    <h2 id="thanks-title">${say(messages.thanks)}</h2>
    <form class="thanks-form" action="/api/ecards/${item.itemUrlUuid!}/replies" method="post" novalidate>
      <label>${say(messages.thanksName)}<input name="name" maxlength="100" required autocomplete="name" value="${item.recipientName ?? ''}"></label>
      <label>${say(messages.thanksMessage)}<textarea name="message" maxlength="500" rows="4" required placeholder="${say(messages.thanksPlaceholder)}"></textarea></label>
      <div class="thanks-row"><span class="thanks-count" aria-live="polite">0 / 500</span><button type="submit">${say(messages.thanksSend)}</button></div>
      <p class="thanks-error" role="alert" hidden></p>
    </form>
    <p class="thanks-done" role="status" hidden>${say(messages.thanksSent)}</p>
  </section>`;
}

/**
 * One song with the page's own player (the script in ecard-page.script.js works it): play and pause,
 * its title, a position slider the keyboard moves, and its length, read before it plays. Without the
 * script, the browser's own controls show instead (the audio element's `controls`, removed by it).
 */
function songPlayer(title: string, source: string, first: boolean, words: Words): SafeHtml {
  return html`<div class="song" data-song><button type="button" class="song-play" aria-label="${words.text(messages.play, { title })}" hidden><span class="song-icon" aria-hidden="true"></span></button><span class="song-title">${title}</span><input type="range" class="song-seek" min="0" max="0" step="1" value="0" aria-label="${words.text(messages.position, { title })}" hidden><span class="song-time" hidden>0:00</span><audio controls preload="${first ? 'auto' : 'metadata'}" src="${source}"></audio></div>`;
}

