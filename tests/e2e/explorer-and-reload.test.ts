import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';

const suite = browserSuite();

describe('lazily loaded screens', () => {
  it('reload the page once when a screen fails to load, then clear the flag', async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    // The documents the tab fetched: the first, and the one reload (a load event is no count of them:
    // the first document can be reloaded before its own load event when the screen fails that early).
    let documents = 0;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents++;
    });
    // The screen's code cannot be fetched by the first document (which tries more than once: ahead of
    // rendering and when rendering), and can by the reloaded one.
    let refused = 0;
    await page.route(/\/assets\/LoginPage-[\w-]+\.js$/, (route) => (documents === 1 ? (refused++, route.abort()) : route.continue()));
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    expect(refused).toBeGreaterThan(0);
    expect(documents).toBe(2);
    expect(await page.evaluate(() => localStorage.getItem('chunkReloadAttempted'))).toBeNull();
    await context.close();
  });

  it('show an error instead of reloading forever when the screen keeps failing', async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    await page.route(/\/assets\/LoginPage-[\w-]+\.js$/, (route) => route.abort());
    let loads = 0;
    page.on('load', () => loads++);
    await page.goto('/login');
    await page.getByText('This screen could not be loaded').waitFor();
    expect(loads).toBe(2);
    await context.close();
  });
});

describe('the GraphQL explorer', () => {
  it('opens from /graphql with no internet and runs a query', async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/graphql');
    // The editors are ready once the default query is drawn in them.
    await page.getByText('Welcome to the Art & Song Cards GraphQL API.').waitFor({ timeout: 20000 });
    await page.getByRole('button', { name: /execute query/i }).click();
    await page.getByText('"underConstructionMode": false').waitFor({ timeout: 20000 });
    await screenshot(page, 'graphql-explorer');
    expect(errors).toEqual([]);
    await context.close();
  });
});
