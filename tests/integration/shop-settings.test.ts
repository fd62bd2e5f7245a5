import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadMedia, type RestFile } from '../helpers/catalogue-fixtures.js';
import { mailHeader, waitForMail } from '../helpers/account-mail.js';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The owner's shop settings (contract section 16): name, logo, support e-mail, sender name, default
 * delivery hour, time zone and announcement bar; checked field by field (400 on the field, nothing
 * changed), admins only, audited, and shown where shoppers meet the shop: GET /api/settings, page
 * titles and structured data, the server-drawn header, e-mails. GraphQL and REST alike.
 */
const SITE = 'https://cards.example';
let app: TestApp;
let admin: string;
let customer: string;
let logo: RestFile;
let song: RestFile;

const SETTINGS = `{ settings { shopName logo { id filePath } supportEmail senderName defaultDeliveryHour timeZone announcementBar { enabled text link } announcement { text link } } }`;
const UPDATE = `mutation($input: UpdateSettingsInput!) { updateSettings(input: $input) { shopName logo { id filePath } supportEmail senderName defaultDeliveryHour timeZone announcementBar { enabled text link } announcement { text link } } }`;

const put = (json: unknown, token = admin) => app.request('/api/settings', { method: 'PUT', json, token });
const update = (input: Record<string, unknown>, token = admin) => app.graphql(UPDATE, { input }, token);
const publicSettings = async () => (await app.request('/api/settings')).json();
/** Every stored row of the shop's settings and the audit log's settings entries: what "nothing changed" compares. */
const stored = async () => ({
  rows: await app.sql(`select key, value from setting where key like 'shop.%' order by key`),
  audit: await app.sql(`select id from audit_entry where entity = 'settings' order by id`),
});
const html = async (pathname: string) => (await app.request(pathname, { headers: { accept: 'text/html' } })).text();
const titleOf = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1];
const jsonLd = (page: string): any[] => [...page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));

beforeAll(async () => {
  app = await startTestApp({ publicUrl: SITE });
  admin = await app.login();
  customer = await app.customer('shopper');
  const media = await uploadMedia(app, admin, { images: 1, songs: 1, folder: 'Brand' });
  [logo] = media.images;
  [song] = media.songs;
});
afterAll(async () => {
  await app?.stop();
});

describe('reading and changing the settings', () => {
  it('starts as the shop always was: its name, no logo, 09:00 UTC, no announcement', async () => {
    expect((await app.graphql(SETTINGS)).body.data.settings).toEqual({
      shopName: 'Art & Song Cards',
      logo: null,
      supportEmail: null,
      senderName: null,
      defaultDeliveryHour: 9,
      timeZone: 'UTC',
      announcementBar: { enabled: false, text: '', link: null },
      announcement: null,
    });
    expect(await publicSettings()).toEqual({ underConstructionMode: 'false', isAdmin: 'false', shopName: 'Art & Song Cards', announcement: null });
  });

  it('GraphQL: an admin changes every setting and reads them back; shoppers get the name and the announcement', async () => {
    const input = {
      shopName: '  Bloom & Tune  ',
      logoId: logo.id,
      supportEmail: ' Help@Bloom.Example ',
      senderName: 'Bloom & Tune Cards',
      defaultDeliveryHour: 7,
      timeZone: 'Europe/Paris',
      announcement: { enabled: true, text: 'Free songs all week', link: '/shop?category=1' },
    };
    const res = await update(input);
    expect(res.body.errors).toBeUndefined();
    const expected = {
      shopName: 'Bloom & Tune',
      logo: { id: logo.id, filePath: logo.file_path },
      supportEmail: 'help@bloom.example',
      senderName: 'Bloom & Tune Cards',
      defaultDeliveryHour: 7,
      timeZone: 'Europe/Paris',
      announcementBar: { enabled: true, text: 'Free songs all week', link: '/shop?category=1' },
      announcement: { text: 'Free songs all week', link: '/shop?category=1' },
    };
    expect(res.body.data.updateSettings).toEqual(expected);
    expect((await app.graphql(SETTINGS)).body.data.settings).toEqual(expected);
    expect(await publicSettings()).toEqual({ underConstructionMode: 'false', isAdmin: 'false', shopName: 'Bloom & Tune', announcement: { text: 'Free songs all week', link: '/shop?category=1' } });
    // A part left out keeps its value; null clears an optional one.
    const partial = await update({ announcement: { link: null }, senderName: null });
    expect(partial.body.data.updateSettings).toMatchObject({ shopName: 'Bloom & Tune', senderName: null, announcementBar: { enabled: true, text: 'Free songs all week', link: null } });
  });

  it('REST: PUT takes the same fields (booleans as strings too) and answers every setting; GET gives shopName and announcement', async () => {
    const res = await put({ shopName: 'Paper Songs', announcement: { enabled: 'true', text: 'Spring sale', link: 'https://paper.example/spring' }, defaultDeliveryHour: '10', logoId: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      underConstructionMode: 'false',
      shopName: 'Paper Songs',
      logoId: null,
      logoPath: null,
      supportEmail: 'help@bloom.example',
      senderName: null,
      defaultDeliveryHour: 10,
      timeZone: 'Europe/Paris',
      announcement: { enabled: true, text: 'Spring sale', link: 'https://paper.example/spring' },
    });
    expect(await publicSettings()).toMatchObject({ shopName: 'Paper Songs', announcement: { text: 'Spring sale', link: 'https://paper.example/spring' } });
    // The original call still changes the switch alone.
    expect((await put({ underConstructionMode: 'false' })).status).toBe(200);
    expect((await publicSettings()).shopName).toBe('Paper Songs');
  });

  it('shows no announcement while it is off or empty (its text is kept)', async () => {
    await put({ announcement: { enabled: false } });
    expect((await publicSettings()).announcement).toBeNull();
    expect((await app.graphql(SETTINGS)).body.data.settings.announcementBar).toEqual({ enabled: false, text: 'Spring sale', link: 'https://paper.example/spring' });
    await put({ announcement: { enabled: true, text: '   ' } });
    expect((await publicSettings()).announcement).toBeNull();
    await put({ announcement: { text: 'Spring sale' } });
    expect((await publicSettings()).announcement).toEqual({ text: 'Spring sale', link: 'https://paper.example/spring' });
  });

  it('reads the settings once and then from memory: no query per use', async () => {
    await publicSettings();
    expect(await recordQueries(app, async () => void (await publicSettings()))).toEqual([]);
    expect(await recordQueries(app, async () => void (await app.graphql(SETTINGS)))).toEqual([]);
  });
});

describe('bad input: 400 on the field, nothing changed', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: [string, Record<string, unknown>, string][] = [
    ['an empty name', { shopName: '  ' }, 'shopName'],
    ['a name of 81 characters', { shopName: long(81) }, 'shopName'],
    ['a name of two lines', { shopName: 'Two\nlines' }, 'shopName'],
    ['a support address that is not one', { supportEmail: 'help at shop' }, 'supportEmail'],
    ['a sender name with a line break', { senderName: 'Shop\r\nBcc: everyone@example.com' }, 'senderName'],
    ['a sender name with angle brackets', { senderName: 'Shop <evil@example.com>' }, 'senderName'],
    ['the hour 24', { defaultDeliveryHour: 24 }, 'defaultDeliveryHour'],
    ['the hour -1', { defaultDeliveryHour: -1 }, 'defaultDeliveryHour'],
    ['half an hour', { defaultDeliveryHour: 7.5 }, 'defaultDeliveryHour'],
    ['an unknown time zone', { timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
    ['an announcement of 201 characters', { announcement: { text: long(201) } }, 'announcement.text'],
    ['a javascript: link', { announcement: { link: 'javascript:alert(1)' } }, 'announcement.link'],
    ['another site spelled as a path', { announcement: { link: '//evil.example/x' } }, 'announcement.link'],
    ['a plain http link', { announcement: { link: 'http://paper.example/' } }, 'announcement.link'],
    ['a logo that does not exist', { logoId: 999_999 }, 'logoId'],
    ['a song as the logo', { logoId: -1 }, 'logoId'],
  ];
  // A good change beside the bad one: all or nothing.
  const withGood = (input: Record<string, unknown>) => ({ shopName: 'Should Not Stick', ...input });
  const withSong = (input: Record<string, unknown>) => (input.logoId === -1 ? { ...input, logoId: song.id } : input);

  it.each(cases)('REST refuses %s', async (_what, input, field) => {
    const before = await stored();
    const res = await put(withGood(withSong(input)));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(await stored()).toEqual(before);
  });

  // GraphQL's Int refuses half an hour itself, before the shop's rules are asked.
  it.each(cases.filter(([what]) => what !== 'half an hour'))('GraphQL refuses %s', async (_what, input, field) => {
    const before = await stored();
    const res = await update(withGood(withSong(input)));
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(await stored()).toEqual(before);
  });
});

describe('who may change them', () => {
  it('answers 401 to a visitor and 403 to a customer, REST and GraphQL, and changes nothing', async () => {
    const before = await stored();
    const anonymous = await app.request('/api/settings', { method: 'PUT', json: { shopName: 'Taken Over' } });
    expect(anonymous.status).toBe(401);
    expect((await put({ shopName: 'Taken Over' }, customer)).status).toBe(403);
    expect((await app.graphql(UPDATE, { input: { shopName: 'Taken Over' } })).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await update({ shopName: 'Taken Over' }, customer)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await stored()).toEqual(before);
  });
});

describe('the audit log', () => {
  it('records each change with what it was and what it became, once per save that changes something', async () => {
    const before = (await stored()).audit.length;
    await update({ shopName: 'Audit Cards', defaultDeliveryHour: 8 });
    const [entry] = await app.sql<{ actor_name: string; entity_id: string; action: string; summary: string }>(
      `select actor_name, entity_id, action, summary from audit_entry where entity = 'settings' order by id desc limit 1`,
    );
    expect(entry).toEqual({ actor_name: 'admin', entity_id: 'shop', action: 'updated', summary: 'shop name “Paper Songs” → “Audit Cards”; default delivery hour 10 → 8' });
    // Saving what is already there changes nothing and records nothing.
    await update({ shopName: 'Audit Cards' });
    expect((await stored()).audit.length).toBe(before + 1);
    const log = await (await app.request('/api/admin/audit?entity=settings', { token: admin })).json();
    expect(JSON.stringify(log)).toContain('shop name “Paper Songs” → “Audit Cards”');
  });
});

describe('where shoppers see them', () => {
  it("names the shop in page titles, the server-drawn header and structured data, and drops kept pages when it changes", async () => {
    await update({ shopName: 'Before Cards', logoId: logo.id, supportEmail: 'help@before.example', announcement: { enabled: true, text: 'Cards <with> songs & more', link: '/shop' } });
    const first = await html('/');
    expect(titleOf(first)).toBe('Before Cards — e-greeting cards with songs and pictures');
    const served = app.cachedReads!.stats.served.page;
    expect(await html('/')).toBe(first);
    expect(app.cachedReads!.stats.served.page).toBe(served + 1);
    const shopPage = await html('/shop');
    expect(titleOf(shopPage)).toBe('Shop · Before Cards');

    await update({ shopName: 'After & Co' });
    const home = await html('/');
    expect(titleOf(home)).toBe('After &amp; Co — e-greeting cards with songs and pictures');
    expect(home).toContain('<meta property="og:site_name" content="After &amp; Co" />');
    const data = jsonLd(home);
    expect(data).toContainEqual(expect.objectContaining({ '@type': 'WebSite', name: 'After & Co' }));
    expect(data).toContainEqual(expect.objectContaining({ '@type': 'Organization', name: 'After & Co', logo: `${SITE}/api/${logo.file_path}`, email: 'help@before.example' }));
    expect(titleOf(await html('/shop'))).toBe('Shop · After &amp; Co');
    // The header and the announcement bar, drawn on the server (readable before any script runs), escaped.
    const root = home.slice(home.indexOf('<div id="root">'));
    expect(root).toContain('<span class="brand-name">After &amp; Co</span>');
    expect(root).toMatch(/<section class="announcement-bar" aria-label="Announcement">.*Cards &lt;with&gt; songs &amp; more/);
    expect(root).toContain(`src="/api/${logo.file_path}"`);
    // The page's own data says it too, for the browser to start from.
    expect(home).toMatch(/"shop":\{"name":"After \\u0026 Co"/);
  });

  it('puts the name, the sender name and the support address into e-mails', async () => {
    await update({ shopName: 'Mail & Song', senderName: 'Mail Song Team', supportEmail: 'care@mail.example' });
    const res = await app.request('/api/admin/staff', { method: 'POST', token: admin, json: { email: 'newhand@example.com', role: 'staff' } });
    expect(res.status).toBe(201);
    const mail = await waitForMail(app, 'newhand@example.com', 'You are invited to help run Mail & Song');
    expect(mailHeader(mail, 'From')).toMatch(/^"?Mail Song Team"? <[^>]+@[^>]+>$/);
    // The text part's footer, and the HTML's header, footer and support link (the outbox keeps parts decoded).
    expect(mail).toContain('Mail & Song — beautiful greetings without the wait.\nQuestions? Write to care@mail.example.');
    expect(mail).toContain('>Mail &amp; Song</div>');
    expect(mail).toContain('Questions? Write to <a href="mailto:care@mail.example" style="color:#7a6f66">care@mail.example</a>.');
    // Without a sender name the e-mail goes out under the shop's name (the configured address kept).
    await update({ senderName: null });
    await app.request('/api/admin/staff', { method: 'POST', token: admin, json: { email: 'second@example.com', role: 'staff' } });
    expect(mailHeader(await waitForMail(app, 'second@example.com', 'You are invited to help run Mail & Song'), 'From')).toMatch(/Mail (&|=26) Song/);
  });
});
