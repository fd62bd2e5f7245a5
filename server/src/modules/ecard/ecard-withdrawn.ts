import { html } from '../../core/html.js';

export const WITHDRAWN_TEXT = 'This card was withdrawn';

/** The page of a card whose order was refunded. */
export function renderEcardWithdrawn(): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${WITHDRAWN_TEXT} — Art &amp; Song Cards</title>
<style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:radial-gradient(circle at 30% 20%,#3a2b4a,#17131f 70%);color:#f3ece2;font-family:Georgia,serif;text-align:center;padding:24px}h1{font-weight:normal}a{color:#f0b27a}</style></head>
<body><main><h1>${WITHDRAWN_TEXT}</h1><p>The sender's order was cancelled and refunded, so this card is no longer available.</p><p><a href="/">Visit Art &amp; Song Cards</a></p></main></body></html>`.value;
}
