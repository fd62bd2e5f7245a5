/**
 * Storefront weight: the JavaScript a shopper's browser loads on a first visit to each storefront
 * route (the entry and what it imports, then the route's screen and what that imports), compressed
 * as the server sends it (brotli, and gzip for browsers without it), beside the goal of 180 kB (the shopper's own pages, opened signed in, 200 kB);
 * what the same visit loads more in German, French or Spanish (the texts of the app and of the
 * screen: English is in the code), beside the goal of 10 kB; and the admin console, the blog editor
 * and the explorer, which no storefront route loads.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ACCOUNT_ROUTES, DIST, KEPT_APART, LANGUAGE_GOAL_KB, LANGUAGES, PAGE_GOAL_KB, STOREFRONT_ROUTES, compressedKb, languageFiles, readManifest, routeFiles, staticClosure } from '../helpers/bundle.js';

export const GOAL_KB = PAGE_GOAL_KB;
/** The shopper's own pages, opened signed in (ACCOUNT_ROUTES). */
export const ACCOUNT_GOAL_KB = 200;

export interface RouteWeight {
  route: string;
  files: number;
  brKb: number;
  gzipKb: number;
  cssBrKb: number;
  /** The brotli kB a first visit in each language loads more than in English. */
  languageBrKb: Record<string, number>;
}

export interface BundleResult {
  routes: RouteWeight[];
  apart: { what: string; file: string; brKb: number; inStorefront: boolean }[];
}

export function runBundleBench(): BundleResult {
  if (!fs.existsSync(path.join(DIST, '.vite', 'manifest.json')) || process.env.BENCH_BUILD === '1') execSync('npm run build:web', { stdio: 'inherit' });
  const manifest = readManifest();
  const sizes = new Map<string, { br: number; gzip: number }>();
  const size = (file: string) => sizes.get(file) ?? sizes.set(file, compressedKb(file)).get(file)!;
  const routes = Object.entries({ ...STOREFRONT_ROUTES, ...ACCOUNT_ROUTES }).map(([route, screen]) => {
    const { js, css } = routeFiles(manifest, screen);
    return {
      route,
      files: js.length,
      brKb: js.reduce((sum, f) => sum + size(f).br, 0),
      gzipKb: js.reduce((sum, f) => sum + size(f).gzip, 0),
      cssBrKb: css.reduce((sum, f) => sum + size(f).br, 0),
      languageBrKb: Object.fromEntries(LANGUAGES.map((language) => [language, languageFiles(manifest, screen, language).reduce((sum, f) => sum + size(f).br, 0)])),
    };
  });
  const storefrontFiles = new Set(Object.values(STOREFRONT_ROUTES).flatMap((screen) => routeFiles(manifest, screen).js));
  const apart = KEPT_APART.map(({ what, module }) => {
    const files = [...staticClosure(manifest, module)].map((key) => manifest[key]!.file).filter((f) => f.endsWith('.js'));
    return { what, file: manifest[module]!.file, brKb: files.filter((f) => !storefrontFiles.has(f)).reduce((sum, f) => sum + size(f).br, 0), inStorefront: storefrontFiles.has(manifest[module]!.file) };
  });
  return { routes, apart };
}

export function printBundle(result: BundleResult): void {
  console.log(`\nStorefront: compressed JavaScript of a first visit, per route (goal: at most ${GOAL_KB} kB; the account's pages ${ACCOUNT_GOAL_KB} kB)`);
  console.table(
    result.routes.map((r) => ({ r, goalKb: r.route in ACCOUNT_ROUTES ? ACCOUNT_GOAL_KB : GOAL_KB })).map(({ r, goalKb }) => ({
      route: r.route,
      'JS files': r.files,
      'JS brotli kB': +r.brKb.toFixed(1),
      'JS gzip kB': +r.gzipKb.toFixed(1),
      goal: `≤ ${goalKb} kB ${r.brKb <= goalKb ? 'met' : 'MISSED'}`,
      'CSS brotli kB': +r.cssBrKb.toFixed(1),
    })),
  );
  console.log(`The same first visits in another language: the JavaScript loaded more than in English (goal: at most ${LANGUAGE_GOAL_KB} kB)`);
  console.table(
    result.routes.map((r) => {
      const most = Math.max(...Object.values(r.languageBrKb));
      return {
        route: r.route,
        'English JS brotli kB': +r.brKb.toFixed(1),
        ...Object.fromEntries(Object.entries(r.languageBrKb).map(([language, kb]) => [`+${language} kB`, +kb.toFixed(1)])),
        goal: `≤ ${LANGUAGE_GOAL_KB} kB ${most <= LANGUAGE_GOAL_KB ? 'met' : 'MISSED'}`,
      };
    }),
  );
  console.log('Kept apart (loaded only where used):');
  console.table(result.apart.map((a) => ({ what: a.what, chunk: a.file, 'own JS brotli kB': +a.brKb.toFixed(1), 'in a storefront route': a.inStorefront ? 'YES' : 'no' })));
}
