import { describe, expect, it } from 'vitest';
import { HTTP_STATUS } from '../../gateway/src/http-errors.js';
import { API_SCOPE_DOCS, API_SCOPES } from '../../server/src/rules/index.js';
import { API_ERRORS, WEBHOOK_EVENTS, codeSamples } from '../../web/src/storefront/developers/developers-content.js';

/**
 * What /developers states about the API, held to the code that answers: each status its codes
 * really answer with, and every code that answers with a listed status; the scopes as the server
 * knows them (their operations are held to the routes and resolvers in tests/integration/api-keys.test.ts).
 */
describe('the developers page', () => {
  it('lists each error code under the status the API answers it with', () => {
    for (const row of API_ERRORS) {
      for (const code of row.codes) expect(HTTP_STATUS[code as keyof typeof HTTP_STATUS], code).toBe(row.status);
    }
  });

  it('lists every code of each status it shows', () => {
    const shown = new Set(API_ERRORS.map((row) => row.status));
    const listed = new Set(API_ERRORS.flatMap((row) => row.codes));
    const missing = Object.entries(HTTP_STATUS).filter(([code, status]) => shown.has(status) && !listed.has(code)).map(([code]) => code);
    expect(missing).toEqual([]);
    expect([...shown].sort()).toEqual([400, 401, 403, 404, 409, 413, 415, 429, 503]);
  });

  it('documents every scope a key may be given', () => {
    expect(API_SCOPE_DOCS.map((doc) => doc.scope)).toEqual([...API_SCOPES]);
    for (const doc of API_SCOPE_DOCS) expect(doc.rest.length + doc.graphql.length, doc.scope).toBeGreaterThan(0);
  });

  it('names the webhook events of the contract', () => {
    expect(WEBHOOK_EVENTS.map((event) => event.type)).toEqual(['order.paid', 'order.refunded', 'order.delivered', 'card.opened', 'card.replied', 'product.created', 'product.updated', 'product.deleted', 'customer.created']);
  });

  it('writes its samples for the shop it is read on', () => {
    const samples = codeSamples('https://cards.example');
    expect(samples.keyRest).toContain('https://cards.example/api/admin/orders');
    expect(samples.keyGraphql).toContain('Authorization: Bearer $ART_SONG_KEY');
    expect(Object.values(samples).join('\n')).not.toContain('your-shop.example');
  });
});
