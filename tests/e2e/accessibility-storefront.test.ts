import { describe, expect, it } from 'vitest';
import { browserSuite } from '../helpers/browser.js';
import { storefrontProblems } from '../helpers/storefront-axe.js';

/** The rest of the storefront's pages under axe-core at desktop width (the phone's: accessibility-storefront-phone.test.ts). */
const suite = browserSuite();

describe('accessibility of the storefront (axe-core), desktop', () => {
  it('finds no moderate or worse problem on the rest of the storefront at 1280 px', { timeout: 240_000 }, async () => {
    const problems = await storefrontProblems(suite.app, suite.browser, { width: 1280, height: 800 });
    expect(Object.entries(problems).filter(([, found]) => found.length)).toEqual([]);
    expect(Object.keys(problems)).toHaveLength(11);
  });
});
