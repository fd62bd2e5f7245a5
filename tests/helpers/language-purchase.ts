import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { mailHeader } from './account-mail.js';
import { newContext } from './browser.js';
import { PHONE, lookAt } from './language-screens.js';
import { decodeQuotedPrintable } from './order-fixtures.js';
import type { TestApp } from './test-app.js';

/** A card's name, description and default message in one of the shop's other languages, written as the product editor writes them (REST). */
export async function translateCard(app: TestApp, token: string, productId: number, translation: { locale: string; name: string; description: string; default_message: string }): Promise<void> {
  const res = await app.request(`/api/products/${productId}`, { method: 'PUT', token, json: { translations: [translation] } });
  expect(res.status).toBe(200);
}

/** The card's e-mail to `to` once it has gone out: its subject, its text, and the path of the card's page it links to. */
export async function cardMailTo(app: TestApp, to: string): Promise<{ subject: string; body: string; cardPath: string }> {
  const dir = path.join(app.dataDir, 'outbox');
  const card = /\/ecards\/[0-9a-f-]+\.html/;
  // The file as written: its headers read as they are (encoded words), its parts decoded for reading.
  const find = () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []).filter((name) => name.endsWith('.eml')).map((name) => fs.readFileSync(path.join(dir, name), 'utf8')).find((eml) => mailHeader(eml, 'To') === to && card.test(decodeQuotedPrintable(eml)));
  await expect.poll(() => find() !== undefined, { timeout: 30_000, interval: 200 }).toBe(true);
  const eml = find()!;
  const body = decodeQuotedPrintable(eml);
  return { subject: decodeHeader(mailHeader(eml, 'Subject') ?? ''), body, cardPath: card.exec(body)![0] };
}

/** What a card's page says in a language, as its recipient opens it. */
export interface CardPageWords {
  heading: string;
  title: string;
  open: string;
  message: string;
  thanks: string;
}

/**
 * The recipient opens the card from its e-mail's link, on a phone whose browser speaks English (the
 * card alone decides the page's language): the page in `locale` with its heading and title, then
 * opened, its message and thank-you form shown; a screenshot before (when named) and after opening.
 * Resolves with the opened page; its caller closes its context.
 */
export async function openCardAsRecipient(browser: Browser, url: string, cardPath: string, locale: string, words: CardPageWords, shots: { closed?: string; open: string }): Promise<Page> {
  const recipient = await newContext(browser, url, { ...PHONE, locale: 'en-US' });
  const card = await recipient.newPage();
  card.setDefaultTimeout(30_000);
  await card.goto(cardPath);
  expect(await card.evaluate(() => document.documentElement.lang)).toBe(locale);
  await card.getByRole('heading', { level: 1, name: words.heading }).waitFor();
  expect(await card.title()).toBe(words.title);
  if (shots.closed) await lookAt(card, locale, shots.closed);
  await card.getByRole('button', { name: words.open }).click();
  await card.waitForFunction(() => document.querySelector('.stage')?.getAttribute('data-state') === 'open');
  expect(await card.locator('.message p').textContent()).toBe(words.message);
  await card.getByRole('heading', { name: words.thanks }).waitFor();
  await lookAt(card, locale, shots.open);
  return card;
}

/** A header's text, its RFC 2047 encoded words (base64 or quoted-printable) decoded and joined. */
function decodeHeader(value: string): string {
  const words = value.replace(/\?=\s+=\?/g, '?==?');
  return words.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
  );
}
