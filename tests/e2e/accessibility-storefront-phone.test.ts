import { describe, expect, it } from 'vitest';
import { PHONE } from '../helpers/account-browser.js';
import { browserSuite } from '../helpers/browser.js';
import { storefrontProblems } from '../helpers/storefront-axe.js';

/** The rest of the storefront's pages under axe-core at a phone's width (the desktop's: accessibility-storefront.test.ts). */
const suite = browserSuite();

describe('accessibility of the storefront (axe-core), phone', () => {
  it(`finds no moderate or worse problem on the rest of the storefront at ${PHONE.width} px`, { timeout: 240_000 }, async () => {
    const problems = await storefrontProblems(suite.app, suite.browser, PHONE);
    expect(Object.entries(problems).filter(([, found]) => found.length)).toEqual([]);
    expect(Object.keys(problems)).toHaveLength(11);
  });
});
