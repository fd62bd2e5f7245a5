import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { iconsDrawn } from './account-browser.js';
import { screenshot } from './browser.js';

/**
 * What the browser files about buying in another language share (contract section 20): a phone, and
 * a look at each screen for what a shopper would notice first, a page wider than the phone, a word
 * cut off in its box, or a piece of the shop's English left on a German or French page.
 */

/** A phone: what most shoppers open the shop on. */
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

type Catalogue = Record<string, string>;
const read = (file: string): Catalogue => JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../..', file), 'utf8'));

/**
 * The shop's own English sentences that read differently in `locale` (the storefront's and the
 * server's pages): any of them on a page in that language is a word left untranslated. Whole
 * messages without placeholders only, and none that is also a word of the language itself ("Blog").
 */
function englishOf(locale: string): string[] {
  const english = { ...read('web/src/i18n/messages/en.json'), ...read('server/src/i18n/messages/en.json') };
  const own = { ...read(`web/src/i18n/messages/${locale}.json`), ...read(`server/src/i18n/messages/${locale}.json`) };
  const words = new Set(Object.values(own));
  return [...new Set(Object.entries(english).filter(([id, text]) => !/[{<]/.test(text) && own[id] !== text && !words.has(text)).map(([, text]) => text))];
}

/**
 * The texts, labels and placeholders on the page that are the shop's English sentences, but for the
 * shop's own content that has no translation (`content`: a category called "Birthday", say).
 */
export function englishLeft(page: Page, locale: string, content: readonly string[] = []): Promise<string[]> {
  return page.evaluate((english) => {
    const known = new Set(english);
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      if (known.has(text) && node.parentElement?.closest('[hidden], template, script, style') === null) found.push(text);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value && known.has(value)) found.push(`${name}="${value}"`);
      }
    }
    return found;
  }, englishOf(locale).filter((text) => !content.includes(text)));
}

/**
 * What sticks out at the phone's width: the page wider than the screen, or a text box (heading,
 * paragraph, label, button, link, table cell) whose words do not fit inside it.
 */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const found: string[] = [];
    if (root.scrollWidth > root.clientWidth) found.push(`the page: ${root.scrollWidth}px wide in ${root.clientWidth}px`);
    for (const element of document.body.querySelectorAll<HTMLElement>('h1, h2, h3, p, label, button, a, dt, dd, td, th, .bp6-button-text, .bp6-tag, .bp6-callout')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || element.closest('[aria-hidden="true"], .visually-hidden, .card-book')) continue;
      if (element.scrollWidth > element.clientWidth + 1 || box.right > root.clientWidth + 1) found.push(`${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.trim().slice(0, 60)}`);
    }
    return found;
  });
}

/**
 * Looks at the screen as it is: photographed for a person, then nothing wider than the phone and no
 * English left but the shop's untranslated `content`.
 */
export async function lookAt(page: Page, locale: string, name: string, content: readonly string[] = []): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, name);
  expect(await overflowing(page), `${name}: overflowing`).toEqual([]);
  expect(await englishLeft(page, locale, content), `${name}: English left`).toEqual([]);
}
