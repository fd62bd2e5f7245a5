import { html, SafeHtml } from '../../core/html.js';
import { SIGNATURE_PAGES_CSS } from './group-card-assets.js';

/** What the delivered card shows of a signature. */
export interface CardSignature {
  name: string;
  message: string;
}

/*
 * The inside of a signed card is a row of pages as large as the card, one after the other (swiped on
 * a phone, turned with the pager's buttons elsewhere): the greeting page with the purchaser's message,
 * then the signatures, as many on each page as fit. The page's text is sized by the card's width
 * (signature-pages.css: 4 % of it, 1.3 line height, 7 % padding), so what fits depends only on
 * the card's shape, and the server can lay the pages out once for every screen. A page whose one
 * signature is longer than the page scrolls.
 */
const FONT = 0.04;
const LINE = 1.3;
const PADDING = 0.07;
/** Characters on one line: the widest fonts of the catalogue take about 0.55 em a character, and wrapping at words wastes some. */
const CHARS_PER_LINE = Math.floor((1 - 2 * PADDING) / (FONT * 0.6));
/** A signature's name line and the gap after it, in lines. */
const NAME_LINES = 1.6;

/** How many lines of text a page of the card's shape (height over width) holds. */
export function linesPerPage(heightOverWidth: number): number {
  return Math.max(6, Math.floor((heightOverWidth - 2 * PADDING) / (FONT * LINE) - 0.5));
}

/** The lines one signature takes on a page: its message (each paragraph wrapped) and its name. */
export function linesOf(signature: CardSignature): number {
  const message = signature.message.split('\n').reduce((lines, paragraph) => lines + Math.max(1, Math.ceil(paragraph.length / CHARS_PER_LINE)), 0);
  return message + Math.max(1, Math.ceil((signature.name.length + 2) / CHARS_PER_LINE)) - 1 + NAME_LINES;
}

/** The signatures laid out on pages in the order written; a signature is never split across two pages. */
export function paginate<T extends CardSignature>(signatures: readonly T[], heightOverWidth: number): { signatures: T[]; overflows: boolean }[] {
  const capacity = linesPerPage(heightOverWidth);
  const pages: { signatures: T[]; lines: number; overflows: boolean }[] = [];
  for (const signature of signatures) {
    const lines = linesOf(signature);
    const last = pages.at(-1);
    if (last && last.lines + lines <= capacity) {
      last.signatures.push(signature);
      last.lines += lines;
    } else pages.push({ signatures: [signature], lines, overflows: lines > capacity });
  }
  return pages.map(({ signatures: onPage, overflows }) => ({ signatures: onPage, overflows }));
}

/**
 * The inside of a signed card: the greeting page (as drawn for any card) and the signature pages, with
 * the pager under the card. `ratio` is the card's height over its width.
 */
export function signedInside(greetingPage: SafeHtml, signatures: readonly CardSignature[], ratio: number): { inside: SafeHtml; pager: SafeHtml } {
  const pages = paginate(signatures, ratio);
  const total = pages.length + 1;
  const inside = html`<div class="inside pages" tabindex="0" role="region" aria-label="Inside the card: ${String(total)} pages, ${String(signatures.length)} ${signatures.length === 1 ? 'signature' : 'signatures'}">
      <div class="page">${greetingPage}</div>
      ${pages.map(
        (page, i) => html`<div class="page sig-page" role="group" aria-label="Page ${String(i + 2)} of ${String(total)}"${page.overflows ? new SafeHtml(' tabindex="0"') : ''}>${page.signatures.map(
          (signature) => html`<div class="signature"><p class="sig-message">${signature.message}</p><p class="sig-name">— ${signature.name}</p></div>`,
        )}</div>`,
      )}
    </div>`;
  const pager = html`<nav class="pager" aria-label="Pages of the card">
    <button type="button" data-page="-1" aria-label="Previous page">‹</button>
    <span class="page-count" aria-live="polite">Page <span class="page-at">1</span> of ${String(total)} · ${String(signatures.length)} ${signatures.length === 1 ? 'signature' : 'signatures'}</span>
    <button type="button" data-page="1" aria-label="Next page">›</button>
  </nav>`;
  return { inside, pager };
}

/** The styles of the signature pages, with the card's font on them (a family name of letters, digits and spaces). */
export function signaturePagesCss(family: string): string {
  const font = family ? `\n.card-book .sig-page { font-family: '${family}', '${family} Local', Georgia, 'Times New Roman', serif; }` : '';
  return SIGNATURE_PAGES_CSS + font;
}
