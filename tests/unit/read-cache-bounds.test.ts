import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CachedAnswer, CacheKeys, Changes, MAX_KEY_LENGTH, ReadCache, jsonAnswer } from '../../server/src/core/read-cache.js';
import { BUFFER_OVERHEAD } from '../../server/src/core/cached-answer.js';
import { preferredEncoding } from '../../gateway/src/http-cache.js';

/**
 * The read cache's bounds: what it holds is counted in bytes with its keys, a key too long is not
 * kept, every entry has a time limit, a prefix drops only its own namespace's keys, and large answers
 * are kept compressed, each form made once. And how an answer is encoded for a caller.
 */

const active = (options: { maxBytes?: number; ttlMs?: number } = {}) => {
  const cache = new ReadCache({ maxBytes: options.maxBytes ?? 1024 * 1024, ttlMs: options.ttlMs });
  cache.setActive(true);
  return cache;
};
const value = (bytes = 100) => jsonAnswer(JSON.stringify('x'.repeat(bytes)));

describe('the read cache counts', () => {
  it('each key in the size of its entry', () => {
    const cache = active();
    cache.store('gql:a', value(), cache.mark());
    const short = cache.bytes;
    cache.invalidate(['*']);
    cache.store(`gql:${'k'.repeat(300)}`, value(), cache.mark());
    expect(cache.bytes - short).toBe(300 - 1);
  });

  it('keeps no key longer than MAX_KEY_LENGTH (its answer is computed every time)', async () => {
    const cache = active();
    let loads = 0;
    const long = `gql:${'k'.repeat(MAX_KEY_LENGTH)}`;
    for (let i = 0; i < 3; i++) await cache.read(long, async () => (loads++, value()));
    expect(loads).toBe(3);
    expect(cache.size).toBe(0);
    cache.store(long, value(), cache.mark());
    expect(cache.size).toBe(0);
  });

  it('never holds more than its bound, however many keys come', () => {
    const cache = active({ maxBytes: 64 * 1024 });
    for (let i = 0; i < 5000; i++) cache.store(`gql:${i}:${'p'.repeat(200)}`, value(50), cache.mark());
    expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.size).toBeLessThan(200);
  });
});

describe('the read cache drops', () => {
  it('a prefix within its own namespace only, and exact keys by name', () => {
    const cache = active();
    // A product's reads and pages in every language go with it; product 12's stay (its keys only share a prefix of digits).
    const keys = [CacheKeys.product(1), CacheKeys.product(1, 'de'), CacheKeys.product(2), CacheKeys.product(12, 'fr'), CacheKeys.categoryList(5), CacheKeys.categoryList(5, 'es'), CacheKeys.categoryList(6), 'gql:x', 'gql:y', ...CacheKeys.productPages(1), 'page:product:1:dark:de', ...CacheKeys.productPages(2), 'shop:home:dark', 'blog:list:dark'];
    for (const key of keys) cache.store(key, value(), cache.mark());
    cache.invalidate(Changes.product(1, [5]));
    expect(keys.filter((key) => cache.peek(key) !== undefined)).toEqual([CacheKeys.product(2), CacheKeys.product(12, 'fr'), CacheKeys.categoryList(6), ...CacheKeys.productPages(2), 'blog:list:dark']);
    cache.invalidate(Changes.blog());
    expect(cache.peek('blog:list:dark')).toBeUndefined();
    expect(cache.peek(CacheKeys.product(2))).toBeDefined();
  });

  it('an entry after its time limit, and after a shorter one the answer gives', () => {
    // The cache's own clock, moved by the test: the limits are exact, whatever else the machine does.
    let now = 1_000_000;
    const cache = new ReadCache({ maxBytes: 1024 * 1024, ttlMs: 200, now: () => now });
    cache.setActive(true);
    cache.store('product:1', value(), cache.mark());
    const page = CachedAnswer.html('<p>page</p>'.repeat(200), 'br', 50);
    cache.store('shop:home:dark', page, cache.mark());
    expect(cache.peek('product:1')).toBeDefined();
    expect(cache.peek('shop:home:dark')).toBe(page);
    now += 50;
    expect(cache.peek('shop:home:dark')).toBe(page);
    now += 1;
    expect(cache.peek('shop:home:dark')).toBeUndefined();
    expect(cache.peek('product:1')).toBeDefined();
    now += 149;
    expect(cache.peek('product:1')).toBeDefined();
    now += 1;
    expect(cache.peek('product:1')).toBeUndefined();
  });

  it('nothing a load read before an invalidation', async () => {
    const cache = active();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = cache.read('product:1', async () => (await gate, value()));
    cache.invalidate(['product:1']);
    release();
    await pending;
    expect(cache.peek('product:1')).toBeUndefined();
  });
});

describe('a cached answer', () => {
  it('keeps a page compressed only, makes each other form once when asked, and is counted again when it grows', () => {
    const cache = active();
    const html = `<!doctype html><main>${'<p>A card with a song for every occasion.</p>'.repeat(300)}</main>`;
    const page = CachedAnswer.html(html, 'br');
    cache.store('page:product:1:dark', page, cache.mark());
    const before = cache.bytes;
    expect(page.size).toBeLessThan(html.length / 4);
    expect(zlib.brotliDecompressSync(page.bytes('br')).toString()).toBe(html);
    expect(page.bytes(null).toString()).toBe(html);
    const gzip = page.bytes('gzip');
    expect(page.bytes('gzip')).toBe(gzip);
    expect(zlib.gunzipSync(gzip).toString()).toBe(html);
    expect(cache.bytes - before).toBe(gzip.length + BUFFER_OVERHEAD);
  });

  it('keeps small JSON as it is, with its strong ETag', () => {
    const answer = jsonAnswer('{"a":1}');
    expect(answer.bytes('br').toString()).toBe('{"a":1}');
    expect(answer.etag).toMatch(/^"[\w-]+"$/);
    expect(answer.compressible).toBe(false);
  });
});

describe('the encoding an answer goes out in', () => {
  it('honours q-values: br;q=0 refuses br, an explicit q decides, ties go to br', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('gzip, br;q=0')).toBe('gzip');
    expect(preferredEncoding('br;q=0')).toBeNull();
    expect(preferredEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(preferredEncoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding('gzip;q=0, br;q=0, *;q=0')).toBeNull();
    expect(preferredEncoding('identity;q=1, br;q=0.5')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding('BR')).toBe('br');
  });

  it('chooses as the negotiator package Express uses does (highest q the caller gives, br before gzip before none on a tie)', () => {
    const Negotiator = createRequire(import.meta.url)('negotiator') as new (req: { headers: Record<string, string> }) => { encodings(available: string[], options?: { preferred?: string[] }): string[] };
    const coding = fc.constantFrom('br', 'gzip', 'identity', '*', 'deflate', 'zstd', 'BR', 'Gzip');
    const q = fc.option(fc.constantFrom('0', '0.0', '0.1', '0.5', '0.8', '1', '1.0', '0.001'), { nil: undefined });
    const header = fc.array(fc.tuple(coding, q), { minLength: 1, maxLength: 5 }).map((parts) => parts.map(([c, quality]) => (quality === undefined ? c : `${c};q=${quality}`)).join(', '));
    fc.assert(
      fc.property(header, (accept) => {
        const codings = ['br', 'gzip', 'identity'];
        const negotiated = new Negotiator({ headers: { 'accept-encoding': accept } }).encodings(codings, { preferred: codings })[0] ?? 'identity';
        return (preferredEncoding(accept) ?? 'identity') === negotiated;
      }),
      { numRuns: 1000 },
    );
  });
});
