import type { RequestContext } from '../../server/src/core/context.js';
import { AppError } from '../../server/src/core/errors.js';
import type { SettingsService } from '../../server/src/modules/settings/settings.service.js';
import type { PublicShop } from '../../server/src/modules/settings/shop-settings.js';
import type { InitialRead, InitialStateReader } from './initial-state.js';
import type { PageModule } from './page-chunks.js';
import type { PageHead } from './page-head.js';
import type { DrawnPage, StorefrontPages } from './page-cache.js';
import { renderPage, type Theme } from './server-render.js';
import { appShellHtml } from './web-client.js';
import { localizedHead } from './page-locale.js';
import { pageWords } from './page-words.js';
import { splitLocalePath, type Locale } from '../../server/src/rules/locales.js';

/** What a page says about itself: its head, the data its first screen reads, and how long it stays right. */
export interface PageDescription {
  head: PageHead;
  reads?: InitialRead[];
  /** How long the page may be kept at most (e.g. until a scheduled post goes live). */
  ttlMs?: number;
  /** False when the page drawn must not be given to anyone else. */
  cacheable?: boolean;
}

export interface DrawRequest {
  /** The address the page is drawn at (the plain one when it is kept), under its language's prefix. */
  url: string;
  theme: Theme;
  page: PageModule;
  /** The page's description, given the shop as its owner set it (its name goes into titles and structured data) and the language of its address. */
  describe: (shop: PublicShop, locale: Locale) => Promise<PageDescription>;
}

/** What the page routes need: the site's address, the drawer and the page cache. */
export interface PageDeps {
  /** The shop's public address (PUBLIC_URL): every absolute address in a page is built on it, never on the request's Host. */
  site: string;
  drawer: PageDrawer;
  pages: StorefrontPages;
}

/**
 * Draws a storefront page for an anonymous visitor: its head, its first screen's data inlined, and
 * that screen drawn by the server renderer, into the app shell. While the shop is under
 * construction a page says nothing about the catalogue; a page whose subject does not exist is the
 * shell with 404. A page is in the language of its address: `<html lang>`, its canonical address
 * under that language's prefix and its alternates in the others (page-locale.ts).
 */
export class PageDrawer {
  constructor(
    private readonly webDir: string,
    private readonly initial: InitialStateReader,
    private readonly settings: SettingsService,
    /** The shop's public address (PUBLIC_URL), which canonical addresses start with. */
    private readonly site?: string,
  ) {}

  async draw(visitor: RequestContext, { url, theme, page, describe }: DrawRequest): Promise<DrawnPage> {
    const { locale } = splitLocalePath(url.split('?')[0]!);
    if (await this.settings.isUnderConstruction(visitor)) return this.shell(visitor, 200, undefined, locale);
    // Read once for the page: the same (cached) settings give its head, its header and its initial state.
    const shop = await this.settings.publicShop(visitor);
    let description: PageDescription;
    try {
      description = await describe(shop, locale);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
      return this.shell(visitor, 404, { title: pageWords(locale)('notFoundTitle', { shop: shop.name }) }, locale);
    }
    const { reads = [], ttlMs, cacheable = true } = description;
    const head: PageHead = localizedHead({ siteName: shop.name, ...description.head }, this.site, locale);
    const state = await this.initial.read(visitor, reads);
    // The first screen drawn here from the same data: painted before the page's JavaScript has run.
    const root = state.settings?.underConstructionMode ? null : await renderPage(this.webDir, url, state, visitor.log, theme);
    const complete = !state.settings?.underConstructionMode && (state.queries?.length ?? 0) === reads.length && root !== null;
    return { status: 200, html: appShellHtml(this.webDir, { head, page, state, root, theme, locale }), cacheable: cacheable && complete, ttlMs };
  }

  /** The bare shell (settings only): the browser draws what it can. */
  async shell(visitor: RequestContext, status: number, head?: PageHead, locale?: Locale): Promise<DrawnPage> {
    const shop = await this.settings.publicShop(visitor);
    const named: PageHead = { title: shop.name, siteName: shop.name, ...head };
    return { status, html: appShellHtml(this.webDir, { status, head: named, state: await this.initial.read(visitor, []), locale }), cacheable: false };
  }
}
