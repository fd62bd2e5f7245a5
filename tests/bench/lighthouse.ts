/**
 * `npm run lighthouse`: Lighthouse (mobile with its default throttling, and the desktop preset) on
 * the storefront's four pages and a delivered e-card's page of a running shop, and on a static
 * control page (the home page as drawn, without its scripts: lighthouse-shop.ts) in the same run,
 * with the goals beside the scores.
 *
 *   PORT=4112 DATA_DIR=/tmp/shop npm start        # in another terminal: the demo shop
 *   LIGHTHOUSE_URL=http://localhost:4112 npm run lighthouse
 *
 * Chromium: /usr/bin/chromium, or CHROME_PATH. Reports (HTML) go to tests/.artifacts/lighthouse/.
 * LIGHTHOUSE_FORMS=mobile (or desktop) measures one form factor only, LIGHTHOUSE_PAGES=/,/blog only
 * those pages (`product` stands for the first card's page, `ecard` for a delivered card's page:
 * LIGHTHOUSE_ECARD=/ecards/<uuid>.html, or one bought now with the demo's fake payment, `control`
 * for the control page), and LIGHTHOUSE_JSON=1 writes the full
 * result as JSON beside each report (long tasks, bootup time, main-thread work). LIGHTHOUSE_RUNS=5
 * measures each page that many times and keeps the run of median performance (a shared machine's
 * noise moves a single mobile score by ten points either way); the scores of every run are shown.
 * Not part of `npm test`: it takes minutes and needs a shop running.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { deliveredEcardPath, shopBase as base, startControlPage } from './lighthouse-shop.js';

const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const outDir = path.resolve('tests/.artifacts/lighthouse');

const GOALS = { mobile: 95, mobileTbtMs: 150, desktop: 95, seo: 95, accessibility: 95, mobileLcpMs: 2500, cls: 0.05 };

async function firstProductPath(): Promise<string> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ searchProducts(first: 1) { edges { node { id } } } }' }),
  });
  const body = (await response.json()) as { data?: { searchProducts: { edges: { node: { id: number } }[] } } };
  const id = body.data?.searchProducts.edges[0]?.node.id;
  if (!id) throw new Error('The shop has no product to measure.');
  return `/product/${id}`;
}

/** The scripts a page fetched, in bytes as sent (compressed). */
const scriptBytes = (lhr: { audits: Record<string, { details?: unknown }> }) =>
  (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items?.find((item) => item.resourceType === 'script')?.transferSize ?? 0;

const chosenPages = process.env.LIGHTHOUSE_PAGES?.split(',').map((page) => page.trim()).filter(Boolean);
const control = await startControlPage('/');
const pages = await Promise.all(
  (chosenPages ?? ['/', '/shop', 'product', '/blog', 'ecard', 'control']).map((page) => (page === 'product' ? firstProductPath() : page === 'ecard' ? deliveredEcardPath() : page)),
);
const urlOf = (page: string) => (page === 'control' ? control.url : `${base}${page}`);
const forms = (['mobile', 'desktop'] as const).filter((form) => !process.env.LIGHTHOUSE_FORMS || process.env.LIGHTHOUSE_FORMS.split(',').includes(form));
const writeJson = process.env.LIGHTHOUSE_JSON === '1';
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1) || 1);
fs.mkdirSync(outDir, { recursive: true });

const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-extensions'],
});
const rows: Record<string, string | number>[] = [];
let failed = false;
try {
  for (const formFactor of forms) {
    for (const page of pages) {
      const results: NonNullable<Awaited<ReturnType<typeof lighthouse>>>[] = [];
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(
          urlOf(page),
          { port: chrome.port, output: writeJson ? ['html', 'json'] : 'html', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] },
          formFactor === 'desktop' ? desktopConfig : undefined,
        );
        if (!result) throw new Error(`Lighthouse gave no result for ${page}`);
        results.push(result);
      }
      const performanceOf = (r: (typeof results)[number]) => r.lhr.categories.performance?.score ?? 0;
      const everyRun = results.map((r) => Math.round(performanceOf(r) * 100));
      const { lhr, report } = [...results].sort((a, b) => performanceOf(a) - performanceOf(b))[Math.floor(results.length / 2)]!;
      const name = `${formFactor}${page === '/' ? '_home' : page.startsWith('/ecards/') ? '_ecard' : page.replace(/^\/?/, '_').replace(/\//g, '_')}`;
      fs.writeFileSync(path.join(outDir, `${name}.html`), Array.isArray(report) ? report[0]! : report);
      if (writeJson && Array.isArray(report)) fs.writeFileSync(path.join(outDir, `${name}.json`), report[1]!);
      if (lhr.runtimeError) {
        failed = true;
        rows.push({ page, form: formFactor, goal: `ERROR ${lhr.runtimeError.code}` });
        continue;
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? NaN;
      const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN;
      const performance = score('performance');
      const tbt = Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN);
      const ok =
        performance >= (formFactor === 'mobile' ? GOALS.mobile : GOALS.desktop) &&
        (formFactor === 'desktop' || tbt <= GOALS.mobileTbtMs) &&
        // A card's page is personal and never indexed (noindex): crawlers' score is not its goal.
        (page.startsWith('/ecards/') || score('seo') >= GOALS.seo) &&
        score('accessibility') >= GOALS.accessibility &&
        (formFactor === 'desktop' || lcp < GOALS.mobileLcpMs) &&
        cls < GOALS.cls;
      failed ||= !ok;
      rows.push({
        page,
        form: formFactor,
        performance: `${performance} (≥ ${formFactor === 'mobile' ? GOALS.mobile : GOALS.desktop})`,
        ...(runs > 1 ? { runs: everyRun.join(' ') } : {}),
        accessibility: score('accessibility'),
        'best practices': score('best-practices'),
        seo: score('seo'),
        'LCP s': +(lcp / 1000).toFixed(2),
        CLS: +cls.toFixed(3),
        TBT: tbt,
        'JS kB': Math.round((scriptBytes(lhr) / 1024) * 10) / 10,
        goal: ok ? 'met' : 'MISSED',
      });
    }
  }
} finally {
  await chrome.kill();
  await control.close();
}
console.log(`\nLighthouse ${base}, control page: ${control.url} (goals: mobile ≥ ${GOALS.mobile} and TBT ≤ ${GOALS.mobileTbtMs} ms, desktop ≥ ${GOALS.desktop}, SEO and accessibility ≥ 95, mobile LCP < 2.5 s, CLS < 0.05)`);
console.table(rows);
console.log(`Reports: ${outDir}`);
if (failed) process.exitCode = 1;
