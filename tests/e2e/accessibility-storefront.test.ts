import { describe, expect, it } from 'vitest';
import { browserSuite } from '../helpers/browser.js';
import { languageProblems, storefrontProblems } from '../helpers/storefront-axe.js';

/** The rest of the storefront's pages under axe-core at desktop width (the phone's: accessibility-storefront-phone.test.ts). */
const suite = browserSuite();

describe('accessibility of the storefront (axe-core), desktop', () => {
  it('finds no moderate or worse problem on the rest of the storefront at 1280 px', { timeout: 240_000 }, async () => {
    const problems = await storefrontProblems(suite.app, suite.browser, { width: 1280, height: 800 });
    expect(Object.entries(problems).filter(([, found]) => found.length)).toEqual([]);
    expect(Object.keys(problems)).toHaveLength(11);
  });

  it(`finds no moderate or worse problem on the German and French home, shop, product and cart pages at 1280 px, each in its language`, { timeout: 120_000 }, async () => {
    const problems = await languageProblems(suite.app, suite.browser, { width: 1280, height: 800 });
    expect(Object.entries(problems).filter(([, found]) => found.length)).toEqual([]);
    expect(Object.keys(problems)).toHaveLength(8);
  });
});
