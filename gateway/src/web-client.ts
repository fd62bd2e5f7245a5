import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestHandler, Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { escapeHtml } from '../../server/src/core/html.js';
import type { PublicShop } from '../../server/src/modules/settings/shop-settings.js';
import { pageChunks, type PageModule } from './page-chunks.js';
import { bootScriptHref } from './boot-script.js';
import { renderHeadTags, scriptJson, type PageHead } from './page-head.js';
import { preferredEncoding, sendHtml } from './http-cache.js';
import type { Locale } from '../../server/src/rules/locales.js';

export type { PageHead } from './page-head.js';

/** The built web client: web/dist beside the sources, found from both src (tsx) and dist (node). */
export function webDistDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../web/dist'), path.resolve(here, '../../../web/dist')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? candidates[0];
}

/**
 * The web client's pages (web/src/app/App.tsx's route table), answered with the app shell: the
 * templates the log and the metrics name them by (their links' tokens ride in the query).
 */
export const CLIENT_PAGES = [
  '/', '/shop', '/product/:id', '/payments', '/cart', '/order-confirmation/:id', '/account', '/account/settings',
  '/account/contacts', '/reminders/stop', '/blog', '/blog/:id', '/admin/blog/new', '/admin/blog/edit/:id', '/admindash',
  '/admindash/products/:id', '/admindash/promotions',
  '/settings', '/login', '/staff/accept', '/forgot-password', '/reset-password', '/verify-email', '/unsubscribe',
  '/under-construction', '/gift-cards', '/gift-card', '/membership', '/developers',
] as const;

/** Hashed build output never changes under its name; anything else is revalidated on every load. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The web client's files: the brotli or gzip copy made at build time when the browser accepts it
 * (`Content-Encoding`, `Vary: Accept-Encoding`), hashed assets cached for good, other files revalidated.
 * The coding is chosen as for every other answer (preferredEncoding: the caller's q-values, br on a
 * tie); express-static-gzip is told only that choice.
 */
export function webAssets(dir: string): RequestHandler {
  const files = expressStaticGzip(dir, {
    index: false,
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    serveStatic: {
      index: false,
      setHeaders(res, filePath) {
        // Hashed build output, and the boot script asked for by its content's address (boot-script.ts).
        const hashed = path.relative(dir, filePath).startsWith(`assets${path.sep}`) || (res as Response).locals?.immutable === true;
        res.setHeader('Cache-Control', hashed ? IMMUTABLE : 'no-cache');
      },
    },
  });
  return (req, res, next) => {
    if (req.headers['accept-encoding'] !== undefined) req.headers['accept-encoding'] = preferredEncoding(req.headers['accept-encoding']) ?? 'identity';
    files(req, res, next);
  };
}

/** Data the page starts from, so its first screen needs no round trip: see web/src/app/initial-state.ts. */
export interface InitialState {
  settings?: { underConstructionMode: boolean; isAdmin: boolean };
  /** The shop as its owner set it: name, logo, announcement (see PublicShop). */
  shop?: PublicShop;
  queries?: { operationName: string; variables: Record<string, unknown>; data: unknown }[];
}

export interface ShellOptions {
  head?: PageHead;
  state?: InitialState;
  /** The screen the page shows: its code is preloaded with the HTML. */
  page?: PageModule;
  status?: number;
  /** The page's first screen drawn by the server (gateway/src/server-render.ts): written into #root, hydrated by the browser. */
  root?: string | null;
  /** The visitor's theme (the `theme` cookie): the page is sent in it, so it never flashes the other one. */
  theme?: 'light' | 'dark';
  /** The page's language (its address's prefix): `<html lang>`. English when left out. */
  locale?: Locale;
}

let template: { file: string; mtimeMs: number; html: string } | null = null;

function readTemplate(file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  if (!template || template.file !== file || template.mtimeMs !== stat.mtimeMs) template = { file, mtimeMs: stat.mtimeMs, html: fs.readFileSync(file, 'utf8') };
  return template.html;
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;

/**
 * index.html with the page's head tags and initial state written in (every value escaped). A page
 * the server drew (`root`) starts its scripts once it has painted (web/public/boot.js): the
 * entry and the modules to preload move from the head onto the boot script.
 */
export function renderAppShell(html: string, options: ShellOptions, webDir?: string): string {
  let out = html;
  const { scripts, styles } = webDir && (options.page || (options.locale && options.locale !== 'en')) ? pageChunks(webDir, options.page, options.locale) : { scripts: [], styles: [] };
  const drawn = Boolean(options.root);
  const links = [
    ...(drawn ? [] : scripts.map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`)),
    ...styles.map((href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`),
  ];
  if (drawn) {
    const entry = ENTRY_SCRIPT.exec(out)?.[1];
    if (entry) {
      const preload = [...out.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
      out = out.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '');
      const all = [...new Set([...preload, ...scripts])];
      links.push(`<script src="${escapeHtml(webDir ? bootScriptHref(webDir) : '/boot.js')}" defer data-entry="${escapeHtml(entry)}" data-preload="${escapeHtml(all.join(' '))}"></script>`);
    }
  }
  if (links.length) out = out.replace('</head>', () => `  ${links.join('\n    ')}
  </head>`);
  if (options.locale && options.locale !== 'en') out = out.replace('<html lang="en">', () => `<html lang="${options.locale}">`);
  if (options.theme === 'light') {
    out = out.replace('<body class="bp6-dark">', '<body>').replace('<meta name="theme-color" content="#1c2127" />', '<meta name="theme-color" content="#f6f7f9" />');
  }
  if (options.head) {
    const tags = renderHeadTags(options.head);
    // Function replacers: a `$` in a title or description is text, never a replacement pattern.
    out = out.replace(/<meta name="description"[^>]*>\s*/, () => '').replace(/<title>[^<]*<\/title>/, () => tags);
  }
  if (options.state) {
    const script = `<script type="application/json" id="initial-state">${scriptJson(options.state)}</script>`;
    out = out.replace('<div id="root"></div>', () => `<div id="root"></div>\n    ${script}`);
  }
  if (options.root) {
    // React writes the resources it found while rendering (image preloads) before the markup: they belong in the head.
    const hoisted = /^(?:<link [^>]*>)+/.exec(options.root)?.[0] ?? '';
    const markup = options.root.slice(hoisted.length);
    if (hoisted) out = out.replace('</head>', () => `  ${hoisted}\n  </head>`);
    out = out.replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`);
  }
  return out;
}

/** The app shell (index.html) describing the page and carrying its first data, or null when the web client is not built. */
export function appShellHtml(dir: string, options: ShellOptions = {}): string | null {
  const html = readTemplate(path.join(dir, 'index.html'));
  return html === null ? null : renderAppShell(html, options, dir);
}

/** Sends the app shell (index.html), optionally describing the page and carrying its first data; compressed when the browser accepts it. */
export function sendAppShell(res: Response, dir: string, options: ShellOptions = {}): void {
  const html = appShellHtml(dir, options);
  if (html === null) {
    res.status(503).type('text/plain').send('The web client is not built yet: run `npm run build:web`.');
    return;
  }
  sendHtml(res.req, res, options.status ?? 200, html, 'no-cache');
}
