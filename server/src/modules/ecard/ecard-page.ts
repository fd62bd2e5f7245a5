import { html, SafeHtml } from '../../core/html.js';
import { songTitle } from '../../rules/index.js';
import type { CardMedia, OrderItem } from '../orders/index.js';

/** What the page shows of a card: a card that was bought, or one previewed before it is (checkout's card-preview.ts). */
export type EcardView = Pick<OrderItem, 'card' | 'name' | 'recipientName' | 'senderName' | 'message' | 'deliveredAt' | 'itemUrlUuid'>;
import { ECARD_CSS, fontCss } from './ecard-assets.js';
import { renderEcardNotice } from './ecard-withdrawn.js';
import { signaturePagesCss, signedInside, type CardSignature } from '../group-card/index.js';

export { ECARD_SCRIPT } from './ecard-assets.js';

/** The font service's stylesheet of a family (spaces as plus signs, swap display), as the client loads it. */
const fontStylesheet = (family: string) => `https://fonts.googleapis.com/css2?family=${family.trim().split(/\s+/).map(encodeURIComponent).join('+')}&display=swap`;

const src = (media: CardMedia) => `/api/${media.path}`;

const image = (media: CardMedia | null, alt: string, className = '') =>
  media ? html`<img class="${className}" src="${src(media)}" alt="${alt}" ${media.width && media.height ? html`width="${media.width}" height="${media.height}"` : ''} decoding="async">` : html`<div class="${className} blank" role="img" aria-label="${alt}"></div>`;

/**
 * The page a recipient opens: a standalone document (its styles inline, one small script) with the
 * cover that opens onto the greeting image and the personal message in its place and font, the back,
 * the extra pictures and the card's songs. The card is the markup of the site's previews
 * (OpeningCard.tsx, CardPreview.tsx in web/) drawn by the same stylesheet (opening-card.css).
 */
export function renderEcardPage(item: EcardView, options: { preview: boolean; repliesLeft: number; signatures?: readonly CardSignature[] } = { preview: true, repliesLeft: 0 }): string {
  const card = item.card!;
  // Only a card that has arrived reports its opening and takes thank-yous; a preview never does.
  const live = !options.preview && Boolean(item.deliveredAt);
  // Font names are letters, digits and spaces (the catalogue checks it); kept so here, they are safe in CSS.
  const family = (card.fontName ?? '').replace(/[^A-Za-z0-9 ]/g, '').trim();
  const ratio = card.cover?.width && card.cover.height ? `${card.cover.width} / ${card.cover.height}` : '3 / 4';
  const title = `A card for ${item.recipientName} from ${item.senderName}`;
  const greetingPage = html`${image(card.greeting, 'The greeting', 'page-image')}
      <div class="message placement-${card.messageLocation}"><p>${item.message ?? ''}</p></div>`;
  // A group card's signatures follow the greeting on pages of their own (see group-card/signature-pages.ts).
  const signed = options.signatures?.length ? signedInside(greetingPage, options.signatures, heightOverWidth(card.cover)) : null;
  // A preview says so in a corner ribbon, whoever looks at it (the sender before buying, the purchaser, an admin).
  const body: SafeHtml = html`
${options.preview ? html`<p class="preview-ribbon" role="note" aria-label="Preview: this is how the card will look">Preview</p>` : ''}
<main class="stage" data-state="closed">
  <header class="intro">
    <p class="eyebrow">Art &amp; Song Cards</p>
    <h1>${item.senderName} sent you a card, ${item.recipientName}</h1>
  </header>
  <div class="card-book spread" style="--ratio: ${ratio}">
    ${signed?.inside ?? html`<div class="inside">
      ${greetingPage}
    </div>`}
    <div class="back">${image(card.back, 'The back of the card', 'page-image')}</div>
    <button class="cover" type="button" aria-label="Open the card for ${item.recipientName}">
      <span class="cover-front">${image(card.cover, item.name, 'page-image')}<span class="hint">Open the card</span></span>
      <span class="cover-inner"><span>For ${item.recipientName}</span></span>
    </button>
  </div>
  <nav class="controls" aria-label="Card">
    <button type="button" data-go="open">Open</button>
    <button type="button" data-go="back">Turn over</button>
    <button type="button" data-go="closed">Close</button>
  </nav>
  ${signed?.pager ?? ''}
  ${card.songs.length ? html`<section class="songs" aria-label="Songs"><h2>Songs</h2>${card.songs.map((song, i) => songPlayer(songTitle(song.name), src(song), i === 0))}</section>` : ''}
  ${card.extras.length ? html`<section class="extras" aria-label="More pictures">${card.extras.map((extra, i) => image(extra, `Picture ${i + 1}`, 'extra'))}</section>` : ''}
  ${live ? thankYouSection(item, options.repliesLeft) : ''}
  <footer><a href="/">Art &amp; Song Cards</a> — beautiful greetings without the wait.</footer>
</main>`;

  return html`<!doctype html>
<html lang="en">
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
<script src="/ecards/ecard.js" defer></script>
</body>
</html>`.value;
}

/** A card's height over its width, from its cover (a portrait card's 4 / 3 without one). */
const heightOverWidth = (cover: CardMedia | null) => (cover?.width && cover.height ? cover.height / cover.width : 4 / 3);

/** The friendly page for a card that does not exist. */
export const renderEcardNotFound = (): string => renderEcardNotice('We could not find this card', 'The link may be incomplete. Check that you copied the whole address from your e-mail.');

/** "Send a thank-you": the recipient's name and a plain-text message, while the card can take one. */
function thankYouSection(item: EcardView, repliesLeft: number): SafeHtml {
  if (repliesLeft <= 0) {
    return html`<section class="thanks" aria-labelledby="thanks-title"><h2 id="thanks-title">Send a thank-you</h2><p class="thanks-done">This card has received all its thank-yous.</p></section>`;
  }
  return html`<section class="thanks" aria-labelledby="thanks-title">
    <h2 id="thanks-title">Send a thank-you</h2>
    <form class="thanks-form" action="/api/ecards/${item.itemUrlUuid!}/replies" method="post" novalidate>
      <label>Your name<input name="name" maxlength="100" required autocomplete="name" value="${item.recipientName ?? ''}"></label>
      <label>Message<textarea name="message" maxlength="500" rows="4" required placeholder="Thank you so much for the card!"></textarea></label>
      <div class="thanks-row"><span class="thanks-count" aria-live="polite">0 / 500</span><button type="submit">Send</button></div>
      <p class="thanks-error" role="alert" hidden></p>
    </form>
    <p class="thanks-done" role="status" hidden>Thank-you sent</p>
  </section>`;
}

/**
 * One song with the page's own player (the script in ecard-page.script.js works it): play and pause,
 * its title, a position slider the keyboard moves, and its length, read before it plays. Without the
 * script, the browser's own controls show instead (the audio element's `controls`, removed by it).
 */
function songPlayer(title: string, source: string, first: boolean): SafeHtml {
  return html`<div class="song" data-song><button type="button" class="song-play" aria-label="Play ${title}" hidden><span class="song-icon" aria-hidden="true"></span></button><span class="song-title">${title}</span><input type="range" class="song-seek" min="0" max="0" step="1" value="0" aria-label="Position in ${title}" hidden><span class="song-time" hidden>0:00</span><audio controls preload="${first ? 'auto' : 'metadata'}" src="${source}"></audio></div>`;
}

