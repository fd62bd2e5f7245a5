import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeGroupCard, type PlacedGroupCard } from '../helpers/group-card-fixtures.js';
import { seedShop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The signing endpoints answer anything a client may send (any body, any text, any header, any path)
 * with a 2xx or a 4xx carrying {message, code}, never a 5xx; and whatever was sent, a card never holds
 * more than 100 signatures, and a signature is only ever changed with its own edit token.
 */
let app: TestApp;
let card: PlacedGroupCard;
let mine: { id: number; edit_token: string };

const later = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  app = await startTestApp({ limits: { registerPerHour: 10_000, checkoutPer10Minutes: 10_000, signaturesPerHour: 1_000_000 } });
  const shop = await seedShop(app, await app.login());
  card = await placeGroupCard(app, shop, { deliveryDate: later(10), collectUntil: new Date(Date.now() + 5 * 86_400_000).toISOString() });
  const res = await app.request(`/api/sign/${card.token}/signatures`, { method: 'POST', json: { name: 'Keeper', message: 'Stays as it is' } });
  mine = await res.json();
});
afterAll(async () => {
  await app?.stop();
});

/** Text a client could send: short and strange, or long. */
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\r\ny', '\u2028', '<script>alert(1)</script>', "'; drop table group_card; --", '🎉'.repeat(200), 'é'.repeat(501), 'x'.repeat(100), 'x'.repeat(101)) },
  { weight: 1, arbitrary: fc.integer({ min: 400, max: 20_000 }).map((n) => 'w'.repeat(n)) },
);
/** Any JSON value a body or a field could be. */
const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }));
const body = fc.oneof(
  { weight: 3, arbitrary: fc.record({ name: fc.string({ minLength: 1, maxLength: 100 }), message: fc.string({ minLength: 1, maxLength: 500 }) }) },
  { weight: 2, arbitrary: fc.record({ name: value, message: value, invite: fc.option(value) }, { requiredKeys: [] }) },
  { weight: 2, arbitrary: fc.record({ name: text, message: text }) },
  { weight: 1, arbitrary: value },
);
/** A header value as HTTP can carry it (no line breaks, no NUL, Latin-1). */
const header = fc.oneof(fc.uuid(), fc.string({ maxLength: 120 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x')));
/** A path segment: the card's token, its signature's id, or anything. */
const token = fc.oneof(fc.constant('TOKEN'), text.map((t) => t.slice(0, 300)));
const id = fc.oneof(fc.constant('MINE'), fc.integer({ min: -5, max: 2 ** 33 }).map(String), text.map((t) => t.slice(0, 50)));
const segment = (raw: string) => encodeURIComponent(raw.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
const pathToken = (raw: string) => (raw === 'TOKEN' ? card.token : segment(raw));
const pathId = (raw: string) => (raw === 'MINE' ? String(mine.id) : segment(raw));

const isFine = async (res: Response) => {
  if (res.status >= 500) return false;
  if (res.status >= 400) {
    const answer = await res.json().catch(() => null);
    return answer !== null && typeof answer.message === 'string' && typeof answer.code === 'string';
  }
  return true;
};

describe('the signing endpoints under any input', () => {
  it('never answer 5xx over REST', { timeout: 600_000 }, async () => {
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), token, id, body, fc.option(header), fc.option(header), async (method, rawToken, rawId, json, key, edit) => {
        const headers: Record<string, string> = {};
        if (key !== null) headers['idempotency-key'] = key;
        if (edit !== null) headers['x-edit-token'] = edit;
        const base = `/api/sign/${pathToken(rawToken)}`;
        const url = method === 'GET' ? base : method === 'POST' ? `${base}/signatures` : `${base}/signatures/${pathId(rawId)}`;
        const res = await app.request(url, { method, headers, ...(method === 'GET' || method === 'DELETE' ? {} : { json }) });
        statuses.set(`${method} ${res.status}`, (statuses.get(`${method} ${res.status}`) ?? 0) + 1);
        expect(await isFine(res), `${method} ${url} → ${res.status}`).toBe(true);
      }),
      { numRuns: 400 },
    );
    // The runs reached the work itself, not only the input checks.
    for (const reached of ['GET 200', 'POST 201', 'PUT 403', 'DELETE 403']) expect(statuses.get(reached) ?? 0, reached).toBeGreaterThan(0);
    // Through it all, the signer's own signature was never changed by anyone else.
    const [row] = await app.sql<{ name: string; message: string }>('select name, message from group_card_signature where id = $1', [mine.id]);
    expect(row).toEqual({ name: 'Keeper', message: 'Stays as it is' });
    const [{ n }] = (await app.sql<{ n: number }>('select count(*)::int as n from group_card_signature')) as [{ n: number }];
    expect(n).toBeLessThanOrEqual(100);
  });

  it('never answer 5xx over GraphQL', { timeout: 600_000 }, async () => {
    const documents = {
      sign: `mutation($token: String!, $input: SignatureInput!, $key: String) { signGroupCard(token: $token, input: $input, idempotencyKey: $key) { id editToken } }`,
      update: `mutation($token: String!, $id: Int!, $edit: String!, $input: SignatureInput!) { updateSignature(token: $token, id: $id, editToken: $edit, input: $input) { id } }`,
      remove: `mutation($token: String!, $id: Int!, $edit: String!) { removeSignature(token: $token, id: $id, editToken: $edit) }`,
      view: `query($token: String!) { groupCard(token: $token) { status signatureCount signatures { id name } } }`,
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...(Object.keys(documents) as (keyof typeof documents)[])), token, fc.integer({ min: -3, max: 2 ** 31 - 1 }), body, fc.option(text), text, async (operation, rawToken, rawId, input, key, edit) => {
        const variables = { token: rawToken === 'TOKEN' ? card.token : rawToken, id: rawId === 0 ? mine.id : rawId, input, key, edit };
        const res = await app.request('/graphql', { method: 'POST', json: { query: documents[operation], variables } });
        expect(res.status, `${operation} → ${res.status}`).toBeLessThan(500);
        const answer = await res.json();
        for (const error of answer.errors ?? []) expect(error.extensions?.code, JSON.stringify(error)).not.toBe('INTERNAL_SERVER_ERROR');
      }),
      { numRuns: 200 },
    );
    const [row] = await app.sql<{ name: string; message: string }>('select name, message from group_card_signature where id = $1', [mine.id]);
    expect(row).toEqual({ name: 'Keeper', message: 'Stays as it is' });
  });
});
