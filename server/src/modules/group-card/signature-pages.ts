import { defineMessages } from '@formatjs/intl';
import { html, SafeHtml } from '../../core/html.js';
import type { Locale } from '../../rules/index.js';
import { wordsFor } from '../mail/index.js';
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
 * (signature-pages.css: 4 % of it, 1.3 line height, 7 % padding), so what fits depends mostly on the
 * card's shape, and the server lays the pages out once for every screen from an estimate of the
 * lines each signature takes. The page's script then measures them in the card's real font and moves
 * a signature that does not fit to the next page; without the script, a page that is too full scrolls.
 */
const FONT = 0.04;
const LINE = 1.3;
const PADDING = 0.07;
/** The gap between the two columns of a wide card's page, of the card's width. */
const COLUMN_GAP = 0.06;
/** Handwriting and book faces average about 0.46 em a character in running text. */
const EM_PER_CHARACTER = 0.46;
/** A signature's name line and the gap after it, in lines. */
const NAME_LINES = 1.5;

/** A card wider than this (height over width below it) has two columns of signatures on a page. */
export const TWO_COLUMNS_BELOW = 0.9;

/** How a page of a card's shape (height over width) is laid out: its columns, the lines of each, the characters of a line. */
export function pageLayout(heightOverWidth: number): { columns: number; lines: number; characters: number } {
  const columns = heightOverWidth < TWO_COLUMNS_BELOW ? 2 : 1;
  const width = (1 - 2 * PADDING - (columns - 1) * COLUMN_GAP) / columns;
  return {
    columns,
    lines: Math.max(6, Math.floor((heightOverWidth - 2 * PADDING) / (FONT * LINE))),
    characters: Math.floor(width / (FONT * EM_PER_CHARACTER)),
  };
}

/** The lines one signature takes in a column of `characters`: its message (each paragraph wrapped) and its name. */
export function linesOf(signature: CardSignature, characters: number): number {
  const message = signature.message.split('\n').reduce((lines, paragraph) => lines + Math.max(1, Math.ceil(paragraph.length / characters)), 0);
  return message + Math.max(1, Math.ceil((signature.name.length + 2) / characters)) - 1 + NAME_LINES;
}

/**
 * The signatures laid out on pages in the order written, column after column; a signature is never
 * split across two columns or pages. `overflows`: a page whose one signature is longer than it.
 */
export function paginate<T extends CardSignature>(signatures: readonly T[], heightOverWidth: number): { signatures: T[]; overflows: boolean }[] {
  const { columns, lines: column, characters } = pageLayout(heightOverWidth);
  const page = columns * column;
  // `used`: the lines of the page taken so far, its columns one after the other.
  const pages: { signatures: T[]; used: number; overflows: boolean }[] = [];
  for (const signature of signatures) {
    const lines = linesOf(signature, characters);
    const last = pages.at(-1);
    if (last) {
      const columnEnd = Math.min(page, (Math.floor(last.used / column) + 1) * column);
      if (last.used + lines <= columnEnd) {
        last.signatures.push(signature);
        last.used += lines;
        continue;
      }
      // One that fits a column starts the next column of the page, if there is one.
      if (lines <= column && columnEnd + lines <= page) {
        last.signatures.push(signature);
        last.used = columnEnd + lines;
        continue;
      }
    }
    // A new page; one longer than a column runs on into the next column, one longer than the page scrolls.
    pages.push({ signatures: [signature], used: lines, overflows: lines > page });
  }
  return pages.map(({ signatures: onPage, overflows }) => ({ signatures: onPage, overflows }));
}

const messages = defineMessages({
  inside: { id: 'ecard.signed.inside', defaultMessage: 'Inside the card: {pages, plural, one {# page} other {# pages}}, {signatures, plural, one {# signature} other {# signatures}}' },
  pageOf: { id: 'ecard.pages.pageOf', defaultMessage: 'Page {page} of {count}' },
  pages: { id: 'ecard.signed.pages', defaultMessage: 'Pages of the card' },
  previous: { id: 'ecard.signed.previous', defaultMessage: 'Previous page' },
  next: { id: 'ecard.signed.next', defaultMessage: 'Next page' },
  count: { id: 'ecard.signed.count', defaultMessage: 'Page <at>1</at> of <total>{count}</total> · {signatures, plural, one {# signature} other {# signatures}}' },
});

/**
 * The inside of a signed card: the greeting page (as drawn for any card) and the signature pages, with
 * the pager under the card. `ratio` is the card's height over its width.
 */
export function signedInside(greetingPage: SafeHtml, signatures: readonly CardSignature[], ratio: number, locale?: Locale): { inside: SafeHtml; pager: SafeHtml } {
  const words = wordsFor(locale);
  const pages = paginate(signatures, ratio);
  const total = pages.length + 1;
  const columns = pageLayout(ratio).columns === 2 ? ' two' : '';
  const inside = html`<div class="inside pages" tabindex="0" role="region" aria-label="${words.text(messages.inside, { pages: total, signatures: signatures.length })}">
      <div class="page">${greetingPage}</div>
      ${pages.map(
        (page, i) => html`<div class="page sig-page${columns}" role="group" aria-label="${words.text(messages.pageOf, { page: i + 2, count: total })}"${page.overflows ? new SafeHtml(' tabindex="0"') : ''}>${page.signatures.map(
          (signature) => html`<div class="signature"><p class="sig-message">${signature.message}</p><p class="sig-name">— ${signature.name}</p></div>`,
        )}</div>`,
      )}
    </div>`;
  const count = words.html(messages.count, { count: total, signatures: signatures.length }, { at: (inner) => `<span class="page-at">${inner}</span>`, total: (inner) => `<span class="page-total">${inner}</span>` });
  const pager = html`<nav class="pager" aria-label="${words.text(messages.pages)}">
    <button type="button" data-page="-1" aria-label="${words.text(messages.previous)}">‹</button>
    <span class="page-count" aria-live="polite">${count}</span>
    <button type="button" data-page="1" aria-label="${words.text(messages.next)}">›</button>
  </nav>`;
  return { inside, pager };
}

/** The styles of the signature pages, with the card's font on them (a family name of letters, digits and spaces). */
export function signaturePagesCss(family: string): string {
  const font = family ? `\n.card-book .sig-page { font-family: '${family}', '${family} Local', Georgia, 'Times New Roman', serif; }` : '';
  return SIGNATURE_PAGES_CSS + font;
}
