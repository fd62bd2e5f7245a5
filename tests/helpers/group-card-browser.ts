import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { newContext } from './browser.js';
import type { TestApp } from './test-app.js';

/** What the browser tests of group cards share: days, a phone, a hundred signatures, a delivered card. */
export const PHONE = { width: 390, height: 844 };

/** A day `offset` days from today, as the browser (on this machine) reads it. */
export const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** A browser profile on the app whose navigations may take long on a busy machine. */
export async function browse(suite: { browser: Browser; app: TestApp }, options: Parameters<typeof newContext>[2] = {}) {
  const made = await newContext(suite.browser, suite.app.url, options);
  made.setDefaultNavigationTimeout(120_000);
  made.setDefaultTimeout(60_000);
  return made;
}

/** Sends a group card out now (its day moved to now), so that its page is the delivered card. */
export async function deliver(app: TestApp, itemId: number) {
  await app.sql(`update mail_job set due_at = now() where ref = 'card:' || $1 and kind = 'card'`, [itemId]);
  await app.services.deliveries.runDue();
  await expect.poll(async () => (await app.sql<{ delivered_at: Date | null }>('select delivered_at from order_item where id = $1', [itemId]))[0]!.delivered_at, { timeout: 30_000 }).not.toBeNull();
}

/** Writes `count` signatures straight into the database (their signing is tested over HTTP elsewhere). */
export async function signatures(app: TestApp, token: string, list: { name: string; message: string }[]) {
  await app.sql(
    `insert into group_card_signature (group_card_id, name, message, edit_token_hash, client_key_hash, content_hash)
     select g.id, s.name, s.message, encode(sha256(('e' || s.n)::bytea), 'hex'), encode(sha256(('c' || s.n)::bytea), 'hex'), encode(sha256(('m' || s.n)::bytea), 'hex')
       from group_card g, unnest($2::text[], $3::text[]) with ordinality as s(name, message, n)
      where g.signing_token = $1`,
    [token, list.map((s) => s.name), list.map((s) => s.message)],
  );
}

const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Dennis', 'Frances', 'Ken', 'Radia', 'Tim', 'Katherine', 'Edsger', 'Hedy', 'John', 'Sophie', 'Guido', 'Annie', 'Donald', 'Mary'];
const LAST = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Liskov', 'Ritchie', 'Allen', 'Thompson', 'Perlman'];
const WORDS = 'thank you for everything you have done for the team over the years it has been a real joy to work with you and we will miss your laugh your kindness and your terrible puns good luck'.split(' ');
/** A hundred signatures as a team writes them: mostly a line or two, some a paragraph, two long ones. */
export const hundred = Array.from({ length: 100 }, (_, i) => {
  const words = i % 33 === 7 ? 90 : i % 9 === 4 ? 35 : 6 + (i % 7) * 2;
  const message = Array.from({ length: words }, (_, w) => WORDS[(i * 7 + w) % WORDS.length]).join(' ');
  return { name: `${FIRST[i % FIRST.length]} ${LAST[(i * 3) % LAST.length]}`, message: `${message[0]!.toUpperCase()}${message.slice(1)}${i % 5 === 0 ? '!\nSee you soon.' : '.'}`.slice(0, 500) };
});
