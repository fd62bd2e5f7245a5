import { html, SafeHtml } from '../../core/html.js';
import { MESSAGE_LOCATIONS } from '../catalogue/e-greeting-card.entity.js';
import type { CardMedia } from '../orders/card-design.js';
import type { OrderItem } from '../orders/order-item.entity.js';

/** The font service's stylesheet of a family (spaces as plus signs, swap display), as the client loads it. */
const fontStylesheet = (family: string) => `https://fonts.googleapis.com/css2?family=${family.trim().split(/\s+/).map(encodeURIComponent).join('+')}&display=swap`;

const src = (media: CardMedia) => `/api/${media.path}`;

const image = (media: CardMedia | null, alt: string, className = '') =>
  media ? html`<img class="${className}" src="${src(media)}" alt="${alt}" ${media.width && media.height ? html`width="${media.width}" height="${media.height}"` : ''} decoding="async">` : html`<div class="${className} blank" role="img" aria-label="${alt}"></div>`;

/**
 * The page a recipient opens: a standalone document (inline styles, one small script) with the cover
 * that opens onto the greeting image and the personal message in its place and font, the back, the
 * extra pictures and the card's songs.
 */
export function renderEcardPage(item: OrderItem, options: { preview: boolean; repliesLeft: number } = { preview: true, repliesLeft: 0 }): string {
  const card = item.card!;
  // Font names are letters, digits and spaces (the catalogue checks it); kept so here, they are safe in CSS.
  const family = (card.fontName ?? '').replace(/[^A-Za-z0-9 ]/g, '').trim();
  const ratio = card.cover?.width && card.cover.height ? `${card.cover.width} / ${card.cover.height}` : '3 / 4';
  const title = `A card for ${item.recipientName} from ${item.senderName}`;
  const body: SafeHtml = html`
<main class="stage" data-state="closed">
  <header class="intro">
    <p class="eyebrow">Art &amp; Song Cards</p>
    <h1>${item.senderName} sent you a card, ${item.recipientName}</h1>
  </header>
  <div class="book" style="--ratio: ${ratio}">
    <div class="inside">
      ${image(card.greeting, 'The greeting', 'page-image')}
      <div class="message placement-${card.messageLocation}"><p>${item.message ?? ''}</p></div>
    </div>
    <div class="back">${image(card.back, 'The back of the card', 'page-image')}</div>
    <button class="cover" type="button" aria-label="Open the card">
      <span class="cover-front">${image(card.cover, item.name, 'page-image')}<span class="hint">Tap to open</span></span>
      <span class="cover-inner"><span>For ${item.recipientName}</span></span>
    </button>
  </div>
  <nav class="controls" aria-label="Card">
    <button type="button" data-go="open">Open</button>
    <button type="button" data-go="back">Turn over</button>
    <button type="button" data-go="closed">Close</button>
  </nav>
  ${card.songs.length ? html`<section class="songs" aria-label="Songs"><h2>Songs</h2>${card.songs.map((song, i) => html`<figure><figcaption>${song.name}</figcaption><audio controls preload="${i === 0 ? 'auto' : 'none'}" src="${src(song)}"></audio></figure>`)}</section>` : ''}
  ${card.extras.length ? html`<section class="extras" aria-label="More pictures">${card.extras.map((extra, i) => image(extra, `Picture ${i + 1}`, 'extra'))}</section>` : ''}
  ${options.preview ? '' : thankYouSection(item, options.repliesLeft)}
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
${new SafeHtml(pageCss(family))}
</style>
</head>
<body${options.preview ? '' : html` data-opened="/api/ecards/${item.itemUrlUuid!}/opened"`}>${body}
<script src="/ecards/ecard.js" defer></script>
</body>
</html>`.value;
}

const EDGE = { top: 'flex-start', middle: 'center', bottom: 'flex-end', left: 'flex-start', center: 'center', right: 'flex-end' } as const;

/** `.placement-top-left { ... }` for each of the eight message placements. */
const placementCss = MESSAGE_LOCATIONS.map((location) => {
  const [row, column] = location.split('-') as [keyof typeof EDGE, 'left' | 'center' | 'right'];
  return `.placement-${location} { align-items: ${EDGE[row]}; justify-content: ${EDGE[column]}; text-align: ${column}; }`;
}).join('\n');

/** The page's styles; the card's font first, then a local copy of it, then a serif. */
const pageCss = (family: string) => `${family ? `@font-face { font-family: '${family} Local'; src: local('${family}'), local('${family.replace(/ /g, '')}-Regular'); font-display: swap; }` : ''}
:root { color-scheme: dark; --paper: #f7f1e6; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: radial-gradient(circle at 30% 20%, #3a2b4a, #17131f 70%); color: #f3ece2; font-family: Georgia, 'Times New Roman', serif; }
.stage { max-width: 980px; margin: 0 auto; padding: 24px 16px 48px; display: flex; flex-direction: column; align-items: center; gap: 20px; }
.intro { text-align: center; }
.eyebrow { margin: 0; letter-spacing: .2em; text-transform: uppercase; font-size: 12px; opacity: .7; }
h1 { margin: 6px 0 0; font-weight: normal; font-size: clamp(22px, 4vw, 34px); }
.book { position: relative; width: min(420px, 86vw); aspect-ratio: var(--ratio); perspective: 2200px; transition: transform .9s ease; }
.inside, .back, .cover { position: absolute; inset: 0; border-radius: 6px; overflow: hidden; background: var(--paper); box-shadow: 0 20px 50px rgba(0,0,0,.5); }
.page-image { width: 100%; height: 100%; object-fit: cover; display: block; }
.blank { width: 100%; height: 100%; background: linear-gradient(135deg, #f7f1e6, #e9dcc6); }
.message { position: absolute; inset: 7%; display: flex; pointer-events: none; }
.message p { margin: 0; max-width: 88%; padding: .5em .7em; border-radius: 6px; background: rgba(255,255,255,.8); color: #2b2320; font-family: ${family ? `'${family}', '${family} Local', ` : ''}Georgia, 'Times New Roman', serif; font-size: clamp(16px, 4.4vw, 24px); line-height: 1.35; white-space: pre-wrap; overflow-wrap: anywhere; }
${placementCss}
.back { opacity: 0; transition: opacity .5s ease; }
.cover { padding: 0; border: 0; cursor: pointer; overflow: visible; background: none; transform-origin: left center; transform-style: preserve-3d; transition: transform 1.1s cubic-bezier(.4,.1,.2,1); font: inherit; color: inherit; }
.cover-front, .cover-inner { position: absolute; inset: 0; border-radius: 6px; overflow: hidden; backface-visibility: hidden; }
.cover-inner { transform: rotateY(180deg); background: var(--paper); color: #5a4a3a; display: flex; align-items: center; justify-content: center; font-size: 22px; font-style: italic; }
.hint { position: absolute; left: 50%; bottom: 16px; transform: translateX(-50%); padding: 6px 14px; border-radius: 99px; background: rgba(0,0,0,.55); color: #fff; font-size: 14px; }
[data-state="open"] .cover, [data-state="back"] .cover { transform: rotateY(-180deg); }
[data-state="back"] .back { opacity: 1; z-index: 1; }
@media (min-width: 760px) { [data-state="open"] .book { transform: translateX(50%); } }
@media (max-width: 759px) { .cover { transition: transform 1.1s cubic-bezier(.4,.1,.2,1), opacity .4s ease .7s; } [data-state="open"] .cover, [data-state="back"] .cover { opacity: 0; pointer-events: none; } }
.controls { display: flex; gap: 8px; }
.controls button { padding: 8px 16px; border-radius: 99px; border: 1px solid rgba(255,255,255,.35); background: rgba(255,255,255,.08); color: inherit; font: inherit; cursor: pointer; }
.controls button:hover { background: rgba(255,255,255,.18); }
.songs { width: min(560px, 100%); }
.songs h2 { font-weight: normal; font-size: 18px; margin: 8px 0; }
.songs figure { margin: 0 0 10px; }
.songs figcaption { font-size: 14px; opacity: .8; margin-bottom: 4px; }
.songs audio { width: 100%; }
.extras { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 220px)); justify-content: center; gap: 12px; width: 100%; }
.extra { width: 100%; height: auto; border-radius: 6px; box-shadow: 0 8px 24px rgba(0,0,0,.4); }
.thanks { width: min(560px, 100%); padding: 20px 22px; border-radius: 12px; background: rgba(255,255,255,.06); border: 1px solid rgba(255,255,255,.16); }
.thanks h2 { font-weight: normal; font-size: 22px; margin: 0 0 12px; }
.thanks form { display: flex; flex-direction: column; gap: 12px; }
.thanks label { display: flex; flex-direction: column; gap: 6px; font-size: 14px; }
.thanks input, .thanks textarea { font: 16px/1.4 Georgia, 'Times New Roman', serif; color: #f3ece2; background: rgba(0,0,0,.28); border: 1px solid rgba(255,255,255,.3); border-radius: 8px; padding: 10px 12px; }
.thanks input:focus, .thanks textarea:focus { outline: 2px solid #f0b27a; outline-offset: 1px; }
.thanks textarea { resize: vertical; min-height: 96px; }
.thanks-row { display: flex; align-items: center; justify-content: space-between; gap: 12px; }
.thanks-count { font-size: 13px; opacity: .7; }
.thanks button { padding: 10px 26px; border-radius: 99px; border: 0; background: #f0b27a; color: #2b1d14; font: inherit; font-weight: bold; cursor: pointer; }
.thanks button:disabled { opacity: .6; cursor: default; }
.thanks-error { margin: 0; color: #ffb4a8; }
.thanks-done { margin: 0; font-size: 18px; }
.thanks [hidden] { display: none; }
footer { font-size: 13px; opacity: .7; }
footer a { color: inherit; }
@media (prefers-reduced-motion: reduce) { .book, .cover, .back { transition: none; } }
`;

/** The friendly page for a card that does not exist. */
export function renderEcardNotFound(): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>Card not found — Art &amp; Song Cards</title>
<style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:radial-gradient(circle at 30% 20%,#3a2b4a,#17131f 70%);color:#f3ece2;font-family:Georgia,serif;text-align:center;padding:24px}h1{font-weight:normal}a{color:#f0b27a}</style></head>
<body><main><h1>We could not find this card</h1><p>The link may be incomplete. Check that you copied the whole address from your e-mail.</p><p><a href="/">Visit Art &amp; Song Cards</a></p></main></body></html>`.value;
}

/** "Send a thank-you": the recipient's name and a plain-text message, while the card can take one. */
function thankYouSection(item: OrderItem, repliesLeft: number): SafeHtml {
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
 * The page's one script: opening, turning over and closing the card, the first song on opening, the
 * opening beacon (sent once the page has rendered in a visible browser tab; a preview has none) and
 * the thank-you form.
 */
export const ECARD_SCRIPT = `(() => {
  const stage = document.querySelector('.stage');
  if (!stage) return;
  const beacon = document.body.dataset.opened;
  let reported = false;
  const report = () => {
    if (!beacon || reported || document.visibilityState !== 'visible') return;
    reported = true;
    // Two frames: the card has been painted before the opening is reported.
    requestAnimationFrame(() => requestAnimationFrame(() => {
      fetch(beacon, { method: 'POST', keepalive: true, credentials: 'omit' }).catch(() => { reported = false; });
    }));
  };
  report();
  document.addEventListener('visibilitychange', report);
  const form = document.querySelector('.thanks-form');
  if (form) {
    const message = form.elements.namedItem('message');
    const name = form.elements.namedItem('name');
    const count = form.querySelector('.thanks-count');
    const error = form.querySelector('.thanks-error');
    const button = form.querySelector('button');
    const done = document.querySelector('.thanks-done');
    const fail = (text) => { error.textContent = text; error.hidden = false; };
    message.addEventListener('input', () => { count.textContent = message.value.length + ' / 500'; });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.hidden = true;
      if (!name.value.trim()) return fail('Please write your name.');
      if (!message.value.trim()) return fail('Please write a message.');
      button.disabled = true;
      try {
        const res = await fetch(form.getAttribute('action'), { method: 'POST', headers: { 'content-type': 'application/json' }, credentials: 'omit', body: JSON.stringify({ name: name.value, message: message.value }) });
        if (res.ok) {
          form.hidden = true;
          done.hidden = false;
          return;
        }
        const body = await res.json().catch(() => null);
        fail((body && body.message) || 'The thank-you could not be sent. Please try again.');
      } catch {
        fail('The thank-you could not be sent. Check your connection and try again.');
      }
      button.disabled = false;
    });
  }
  const song = document.querySelector('.songs audio');
  let played = false;
  const go = (state) => {
    stage.dataset.state = state;
    if (state === 'open' && song && !played) {
      played = true;
      song.play().catch(() => {});
    }
  };
  document.querySelector('.cover')?.addEventListener('click', () => go('open'));
  for (const button of document.querySelectorAll('[data-go]')) button.addEventListener('click', () => go(button.dataset.go));
})();
`;
