import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import { escapeHtml } from '../../server/src/core/html.js';

/** The built web client: web/dist beside the sources, found from both src (tsx) and dist (node). */
export function webDistDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../web/dist'), path.resolve(here, '../../../web/dist')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? candidates[0];
}

export interface PageHead {
  title: string;
  description?: string;
  /** Open Graph and other `<meta property>` tags. */
  meta?: Record<string, string>;
}


/** Sends the app shell (index.html), optionally with a page-specific title and meta tags for crawlers. */
export function sendAppShell(res: Response, dir: string, options: { head?: PageHead; status?: number } = {}): void {
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) {
    res.status(503).type('text/plain').send('The web client is not built yet: run `npm run build:web`.');
    return;
  }
  res.setHeader('Cache-Control', 'no-cache');
  res.status(options.status ?? 200);
  if (!options.head) {
    res.sendFile(index);
    return;
  }
  const { title, description, meta = {} } = options.head;
  const tags = [
    description ? `<meta name="description" content="${escapeHtml(description)}" />` : '',
    ...Object.entries(meta).map(([property, content]) => `<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}" />`),
  ].join('\n    ');
  const html = fs
    .readFileSync(index, 'utf8')
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(/<meta name="description"[^>]*>\s*/, '')
    .replace('</head>', `  ${tags}\n  </head>`);
  res.type('html').send(html);
}
