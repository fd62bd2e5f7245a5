import { html, SafeHtml } from '../../core/html.js';
import { MAX_PERSON_NAME, MAX_SIGNATURE_MESSAGE, MAX_SIGNATURES, SIGNING_TEXTS } from '../../rules/index.js';
import { SIGN_PAGE_CSS } from './group-card-assets.js';
import { SigningStatus } from './group-card-status.js';
import type { SigningView } from './group-card.service.js';

export { SIGN_PAGE_SCRIPT } from './group-card-assets.js';

/** A deadline as its purchaser set it: in their time zone, named. */
function deadlineText(at: Date, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone, timeZoneName: 'short' }).format(at);
  } catch {
    return at.toISOString();
  }
}

const STATUS_TEXT: Record<Exclude<SigningStatus, SigningStatus.OPEN>, string> = {
  [SigningStatus.FULL]: SIGNING_TEXTS.full,
  [SigningStatus.CLOSED]: SIGNING_TEXTS.closed,
  [SigningStatus.WITHDRAWN]: `${SIGNING_TEXTS.closed} ${SIGNING_TEXTS.withdrawn}`,
};

/**
 * `/sign/{token}`: one light document for phones (its styles inline, one small script at
 * /sign/sign.js, no framework): the card's cover, whom it is for and the deadline, then "Your name",
 * "Your message" and "Sign the card" while the card takes signatures. The script signs through
 * `POST /api/sign/{token}/signatures` and keeps the signature's edit token in the browser's storage
 * (never in the address), so the same browser can change or remove it until the deadline.
 */
export function renderSignPage(view: SigningView, token: string): string {
  const { card, item, status, signatures } = view;
  const recipient = item.recipientName ?? 'someone special';
  const cover = item.card?.cover ?? null;
  const open = status === SigningStatus.OPEN;
  // While the card takes changes, the script may show the signer their own signature to change.
  const editable = status === SigningStatus.OPEN || status === SigningStatus.FULL;
  const body = html`<main class="sign" data-api="/api/sign/${token}" data-status="${status}"${editable ? new SafeHtml(' data-editable') : ''}>
  <header>
    <p class="eyebrow">Art &amp; Song Cards · a group card</p>
    <h1>Sign the card for ${recipient}</h1>
    ${item.senderName ? html`<p class="lede">${item.senderName} is collecting messages for ${recipient}. Add yours: it will be inside the card when it arrives.</p>` : ''}
  </header>
  <div class="card-row">
    ${cover ? html`<img class="cover" src="/api/${cover.path}" alt="The cover of ${item.name}" ${cover.width && cover.height ? html`width="${cover.width}" height="${cover.height}"` : ''} decoding="async">` : html`<div class="cover blank" role="img" aria-label="The card"></div>`}
    <dl class="facts">
      <dt>For</dt><dd>${recipient}</dd>
      <dt>The card</dt><dd>${item.name}</dd>
      <dt>Signatures collected until</dt><dd><time datetime="${card.collectUntil.toISOString()}">${deadlineText(card.collectUntil, item.timeZone ?? 'UTC')}</time></dd>
      <dt>Signed so far</dt><dd><span class="signed-count">${String(signatures.length)}</span> of ${String(MAX_SIGNATURES)}</dd>
    </dl>
  </div>
  <section class="mine" aria-labelledby="mine-title" hidden>
    <h2 id="mine-title">Your signature</h2>
    <p class="done" role="status">${SIGNING_TEXTS.signed}</p>
    <blockquote class="mine-message"></blockquote>
    <p class="mine-name"></p>
    <div class="row mine-actions"${editable ? '' : new SafeHtml(' hidden')}><button type="button" class="secondary" data-action="edit">Change my signature</button><button type="button" class="secondary" data-action="remove">Remove my signature</button></div>
    <p class="error mine-error" role="alert" hidden></p>
  </section>
  ${open ? '' : html`<p class="closed" role="status">${STATUS_TEXT[status as Exclude<SigningStatus, SigningStatus.OPEN>]}</p>`}
  <form class="sign-form" novalidate${open ? '' : new SafeHtml(' hidden')}>
    <label>Your name<input name="name" maxlength="${String(MAX_PERSON_NAME)}" required autocomplete="name"></label>
    <label>Your message<textarea name="message" maxlength="${String(MAX_SIGNATURE_MESSAGE)}" rows="5" required placeholder="${view.sample}"></textarea></label>
    <div class="row"><span class="count" aria-live="polite">0 / ${String(MAX_SIGNATURE_MESSAGE)}</span><span class="buttons"><button type="button" class="secondary cancel" hidden>Cancel</button><button type="submit">Sign the card</button></span></div>
    <p class="error" role="alert" hidden></p>
  </form>
  <section class="names" aria-labelledby="names-title"${signatures.length ? '' : new SafeHtml(' hidden')}>
    <h2 id="names-title">Signed by</h2>
    <ul>${signatures.map((signature) => html`<li data-id="${String(signature.id)}">${signature.name}</li>`)}</ul>
  </section>
  <footer><a href="/">Art &amp; Song Cards</a> — beautiful greetings without the wait.</footer>
</main>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign the card for ${recipient} — Art &amp; Song Cards</title>
${cover ? html`<link rel="preload" as="image" href="/api/${cover.path}">` : ''}
<style>${new SafeHtml(SIGN_PAGE_CSS)}</style>
</head>
<body>${body}
<script src="/sign/sign.js" defer></script>
</body>
</html>`.value;
}

/** The friendly page for a signing link that names no card. */
export function renderSignNotFound(): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>Signing link not found — Art &amp; Song Cards</title>
<style>${new SafeHtml(SIGN_PAGE_CSS)}</style></head>
<body><main class="sign"><header><h1>We could not find this card</h1><p class="lede">The signing link may be incomplete. Check that you copied the whole address.</p></header><footer><a href="/">Visit Art &amp; Song Cards</a></footer></main></body></html>`.value;
}
