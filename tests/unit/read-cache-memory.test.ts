import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CachedAnswer, CacheKeys, ReadCache, jsonAnswer } from '../../server/src/core/read-cache.js';

/**
 * What the read cache counts is what it holds: filling it with answers as the shop makes them (JSON
 * reads, pages kept compressed) grows the process's memory by about what `bytes` says, keys and
 * bookkeeping included, so that READ_CACHE_MB is a budget one can plan with.
 */

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function used(): number {
  gc();
  gc();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

const product = (i: number) =>
  JSON.stringify({
    product: { id: i, name: `Album ${i}`, description: `A description of product ${i}: songs and pictures for every occasion, carefully chosen for the people you love.`, sku: `SKU-${i}`, price: 5.99, category_id: 7, product_type_id: 2, main_image_id: 3 },
    main_image_path: `uploads/bench/image-${i % 40}.png`,
    tags: ['gift', `tag${i % 10}`],
    associated_images: [],
    e_greeting_card_data: null,
  });

const page = (i: number) => `<!doctype html><html><head><title>Album ${i} · Art &amp; Song Cards</title></head><body><div id="root">${`<div class="tile"><a href="/product/${i}">Album ${i}</a><p>Songs and pictures for every occasion, number ${i}.</p></div>`.repeat(40)}</div><script>${Math.random()}</script></body></html>`;

describe('the read cache’s count of its memory', () => {
  it('is within a quarter of what its entries really take (JSON answers and compressed pages, keys included)', () => {
    for (const [kind, make, key] of [
      ['JSON', (i: number) => jsonAnswer(product(i)), (i: number) => CacheKeys.product(i)],
      ['page', (i: number) => CachedAnswer.html(page(i), 'br'), (i: number) => CacheKeys.productPage(i, 'dark')],
    ] as const) {
      const cache = new ReadCache({ maxBytes: 512 * 1024 * 1024 });
      cache.setActive(true);
      const before = used();
      for (let i = 0; i < 4000; i++) cache.store(key(i), make(i), cache.mark());
      // What the process holds more: the answers, their keys and the cache's bookkeeping.
      const real = used() - before;
      expect(cache.size).toBe(4000);
      const ratio = cache.bytes / real;
      console.log(`${kind}: counted ${(cache.bytes / 4000).toFixed(0)} bytes an entry, measured ${(real / 4000).toFixed(0)} (${ratio.toFixed(2)})`);
      expect(ratio).toBeGreaterThan(0.75);
      expect(ratio).toBeLessThan(1.5);
    }
  });
});
