import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logSerializers, scrubSecrets } from '../../gateway/src/log-serializers.js';
import { RouteTemplates } from '../../gateway/src/route-templates.js';
import { CLIENT_PAGES } from '../../gateway/src/web-client.js';

const templates = new RouteTemplates()
  .add('', [{ method: 'get', path: '/graphql' }, { method: 'post', path: '/graphql' }])
  .add('/api', [
    { method: 'get', path: '/products/category/:id' },
    { method: 'get', path: '/products/:id' },
    { method: 'get', path: '/sign/:token' },
    { method: 'post', path: '/sign/:token/signatures' },
    { method: 'put', path: '/sign/:token/signatures/:id' },
    { method: 'get', path: '/unsubscribe' },
  ])
  .add('', [
    { method: 'get', path: '/ecards/:file' },
    { method: 'get', path: '/sign/:token' },
    { method: 'post', path: '/unsubscribe' },
  ])
  .add('', CLIENT_PAGES.map((path) => ({ method: 'get', path })));

const KNOWN = new Set(['/graphql', '/api/products/category/:id', '/api/products/:id', '/api/sign/:token', '/api/sign/:token/signatures', '/api/sign/:token/signatures/:id', '/api/unsubscribe', '/ecards/:file', '/sign/:token', '/unsubscribe', ...CLIENT_PAGES, '/api/*', '/static', '/*', '/healthz', '/readyz', '/metrics']);

describe('route templates', () => {
  it('name a request by the route Express would take', () => {
    expect(templates.template('GET', '/api/products/category/12')).toBe('/api/products/category/:id');
    expect(templates.template('GET', '/api/products/12?fields=all')).toBe('/api/products/:id');
    expect(templates.template('PUT', '/api/sign/abc/signatures/7')).toBe('/api/sign/:token/signatures/:id');
    expect(templates.template('HEAD', '/SIGN/abc/')).toBe('/sign/:token');
    expect(templates.template('GET', '/ecards/0b6f3b8e-5a47-4c0e-9d6b-2f1f0c7d9e11.html?preview=1')).toBe('/ecards/:file');
    expect(templates.template('GET', '/reset-password?token=abc')).toBe('/reset-password');
    expect(templates.template('POST', '/unsubscribe?token=abc')).toBe('/unsubscribe');
    // A method no route takes still names its address; an unknown address only its kind.
    expect(templates.template('DELETE', '/api/sign/abc')).toBe('/api/sign/:token');
    expect(templates.template('GET', '/api/sign/abc/more/than/routes')).toBe('/api/*');
    expect(templates.template('GET', '/assets/app-1234.js')).toBe('/static');
    expect(templates.template('GET', '/sign//x')).toBe('/*');
    expect(templates.template('GET', '/healthz')).toBe('/healthz');
    const req = { method: 'GET', url: '/products/5', originalUrl: '/api/products/5' } as unknown as IncomingMessage;
    expect(templates.of(req)).toBe('/api/products/:id');
  });

  it('never give back any part of the address they were asked about', () => {
    const segment = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('/') && !s.includes('?'));
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'), fc.array(segment, { maxLength: 6 }), fc.string(), fc.boolean(), (method, segments, query, slash) => {
        const url = `/${segments.join('/')}${slash ? '/' : ''}${query ? `?${query}` : ''}`;
        expect(KNOWN).toContain(templates.template(method, url));
      }),
      { numRuns: 2000 },
    );
  });

  it('cover every page of the web client', () => {
    const app = readFileSync(new URL('../../web/src/app/App.tsx', import.meta.url), 'utf8');
    const table = app.slice(app.indexOf('export const routes'));
    const paths = [...table.matchAll(/\bpath: '([^']+)'/g)].map((match) => match[1]!).filter((path) => path !== '*');
    expect(paths.length).toBeGreaterThan(15);
    expect(paths.map((path) => (path.startsWith('/') ? path : `/${path}`)).filter((path) => !(CLIENT_PAGES as readonly string[]).includes(path))).toEqual([]);
  });
});

describe('the log serializers', () => {
  const serializers = logSerializers(templates);
  const token = 'mLhUBEOUBZrfjX-M0jq2PeUXNBhlQRDPG56GWV4s7O8';
  const uuid = '3009896b-e3c8-4668-860b-66f61fc3b740';

  it('write a request by its id, method and route template', () => {
    const req = { id: 'r-1', method: 'POST', url: `/api/sign/${token}/signatures?x=1`, headers: { cookie: 'secret' } } as unknown as IncomingMessage;
    expect(serializers.req(req)).toEqual({ id: 'r-1', method: 'POST', route: '/api/sign/:token/signatures' });
    expect(serializers.req(`/sign/${token}`)).toEqual({ route: '/sign/:token' });
  });

  it('write an error with the links, tokens and uuids of its texts replaced by what they are', () => {
    const error = Object.assign(new Error(`GET https://cards.example/sign/${token}?ref=mail failed for /unsubscribe?token=${token}&x=1`), {
      sql: `select * from order_item where item_url_uuid = '${uuid}'`,
      cause: new Error(`/ecards/${uuid}.html not found`),
    });
    const written = serializers.err(error) as Record<string, unknown>;
    const text = JSON.stringify(written);
    expect(text).not.toContain(token);
    expect(text).not.toContain(uuid);
    // (pino writes the cause's message after the error's own.)
    expect(written.message).toBe('GET https://cards.example/sign/:token?ref=mail failed for /unsubscribe?token=[secret]&x=1: /ecards/:file not found');
    expect(written.sql).toBe(`select * from order_item where item_url_uuid = '[uuid]'`);
    expect(written.type).toBe('Error');
    expect(String(written.stack)).toMatch(/^Error: GET https:\/\/cards\.example\/sign\/:token/);
    // Where the error was thrown is still told.
    expect(String(written.stack)).toContain('route-templates.test.ts');
    expect(scrubSecrets('at Object.<anonymous> (/work/app/node_modules/pino-http/logger.js:115:39)', templates)).toBe('at Object.<anonymous> (/work/app/node_modules/pino-http/logger.js:115:39)');
  });
});
