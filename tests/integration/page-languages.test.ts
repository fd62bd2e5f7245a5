import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeGroupCard } from '../helpers/group-card-fixtures.js';
import { manualClock, orderInput, personalisation, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { LOCALES, type Locale } from '../../server/src/rules/locales.js';

/**
 * Contract section 20: what each page the server draws says in each of the shop's languages: the
 * storefront's pages (home, shop, a card's and an album's page, the blog and a post), a card's
 * page as its recipient opens it and a group card's signing page, each bought in that language.
 * The words (the title, the description and the text a reader sees, never the markup) are kept in
 * a file per language beside this test, for people to read and review; a change of words shows
 * there. The product has a translation in German only: French and Spanish show its English.
 */
let app: TestApp;
let shop: Shop;
let postSlug: string;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' }, { clock: clock.now });
  const admin = await app.login();
  shop = await seedShop(app, admin);
  const translations = [{ locale: 'de', name: 'Luftballon-Geburtstag', description: 'Luftballons und ein Lied.', default_message: 'Alles Liebe zum Geburtstag!' }];
  expect((await app.request(`/api/products/${shop.cardId}`, { method: 'PUT', token: admin, json: { translations } })).status).toBe(200);
  const post = await app.request('/api/blog', { method: 'POST', token: admin, json: { title: 'Cards for spring', body: 'New songs for the season.', excerpt: 'Spring is here.', status: 'published' } });
  postSlug = (await post.json()).slug;
  await app.sql(`update blog_post set published_at = '2026-11-20T09:00:00Z', updated_at = '2026-11-20T09:00:00Z'`);
});
afterAll(async () => {
  await app?.stop();
});

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };
const BLOCK = /<\/?(p|div|h[1-6]|li|ul|ol|section|article|header|footer|nav|main|aside|form|label|button|a|option|select|figure|figcaption|br|tr|td|th|blockquote|dt|dd)\b[^>]*>/gi;

/** The words of a page: its title and description, then its body's text, a line per block. */
function wordsOf(html: string): string {
  const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name: string) => ENTITIES[name]!);
  const title = decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
  const description = decode(/<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '');
  const body = html.slice(html.indexOf('<body')).replace(/<(script|style|svg|template|noscript)\b[\s\S]*?<\/\1>/gi, '');
  const text = decode(body.replace(BLOCK, '\n').replace(/<[^>]+>/g, ''));
  const lines = text.split('\n').map((line) => line.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return [`Title: ${title}`, `Description: ${description}`, '', ...lines].join('\n');
}

/** A card bought in `locale`, as its recipient opens it, and a group card's signing page. */
async function cardPages(locale: Locale): Promise<[string, string][]> {
  const PLACE = `mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { items { itemUrlUuid } } }`;
  const line = { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: `grace-${locale}@example.com` }) };
  const { body } = await app.graphql(PLACE, { input: orderInput(shop, { purchaserEmail: `ada-${locale}@example.com`, lines: [line], locale }) });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  await app.services.deliveries.runDue();
  const group = await placeGroupCard(app, shop, { deliveryDate: '2026-12-24', collectUntil: '2026-12-23T17:00:00Z', purchaserEmail: `ada-group-${locale}@example.com`, locale });
  return [
    ['the card, as its recipient opens it', `/ecards/${body.data.placeOrder.items[0].itemUrlUuid}.html`],
    ['the group card\'s signing page', `/sign/${group.token}`],
  ];
}

async function read(pathname: string): Promise<string> {
  const res = await app.request(pathname, { headers: { accept: 'text/html' } });
  expect(res.status, pathname).toBe(200);
  return res.text();
}

const at = (locale: Locale, path: string) => (locale === 'en' ? path : path === '/' ? `/${locale}` : `/${locale}${path}`);

describe('pages in every language', () => {
  it.each(LOCALES)('%s: what each page the server draws says', async (locale) => {
    const storefront: [string, string][] = [
      ['home', '/'],
      ['shop', '/shop'],
      ['a card\'s page', `/product/${shop.cardId}`],
      ['an album\'s page', `/product/${shop.albumId}`],
      ['blog', '/blog'],
      ['a blog post', `/blog/${postSlug}`],
    ];
    const pages = [...storefront.map(([name, path]): [string, string] => [name, at(locale, path)]), ...(await cardPages(locale))];
    const said: string[] = [];
    for (const [name, path] of pages) {
      const html = await read(path);
      expect(html, path).toMatch(new RegExp(`<html [^>]*lang="${locale}"|<html lang="${locale}"`));
      said.push(`=== ${name}\n${wordsOf(html)}`);
    }
    await expect(said.join('\n\n') + '\n').toMatchFileSnapshot(`./__snapshots__/page-languages/${locale}.txt`);
  });
});
