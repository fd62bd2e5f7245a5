import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { migrationsList } from '../../migrations/index.js';
import type { RequestContext } from '../../server/src/core/context.js';
import { CachedAnswer, THEMES, type Encoding } from '../../server/src/core/read-cache.js';
import type { PageEdition, ProductPages } from '../../server/src/modules/catalogue/index.js';
import { DEFAULT_LOCALE } from '../../server/src/rules/locales.js';
import { serverEntryFile } from './server-render.js';

/**
 * What a stored page was drawn with, besides its data: the client's build (its chunks' names are in
 * every page), the server's build where there is one (dist/build-stamp.json), the shop's address and
 * the database's last migration. A page stored by another build is never read, and is drawn again.
 */
export function pageBuild(webDir: string, site: string): string {
  const hash = crypto.createHash('sha1');
  for (const file of [path.join(webDir, '.vite', 'manifest.json'), serverEntryFile(webDir), path.join(webDir, '..', '..', 'build-stamp.json')]) {
    hash.update(file).update('\0');
    try {
      hash.update(fs.readFileSync(file));
    } catch {
      hash.update('missing');
    }
  }
  return hash.update(site).update('\0').update(migrationsList.at(-1)?.name ?? '').digest('hex');
}

/** The stored pages' edition this process reads and draws: English product pages in every theme, of this build. */
export function pageEdition(webDir: string, site: string): PageEdition {
  return { build: pageBuild(webDir, site), themes: THEMES, locale: DEFAULT_LOCALE };
}

/**
 * The product pages drawn in the background, as a request that missed memory reads them: one
 * indexed read, taken only when drawn after the product's last change (see ProductPages).
 */
export class StoredProductPages {
  constructor(
    private readonly pages: ProductPages,
    readonly edition: PageEdition,
  ) {}

  /** Whether pages of this language are stored. */
  keeps(locale: string): boolean {
    return locale === this.edition.locale;
  }

  /** The stored page, in the form the caller takes first (`first`: br, else gzip). */
  async read(ctx: RequestContext, productId: number, theme: string, first: Encoding | null): Promise<CachedAnswer | null> {
    const page = await this.pages.read(ctx.em, productId, theme, this.edition, first === 'br');
    return page ? CachedAnswer.stored('html', page) : null;
  }
}
