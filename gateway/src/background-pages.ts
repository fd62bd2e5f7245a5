import { setImmediate as nextTurn } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { createSystemContext } from '../../server/src/core/context.js';
import { CachedAnswer } from '../../server/src/core/read-cache.js';
import type { Foreground } from '../../server/src/core/foreground.js';
import type { GraphQLSchema } from 'graphql';
import type { AppConfig } from '../../server/src/config.js';
import { PRODUCT_PAGES_QUEUED_SIGNAL, PRODUCT_PAGES_STALE_SIGNAL, type PageEdition, type PageWork, type ProductPages } from '../../server/src/modules/catalogue/index.js';
import type { Runtime } from '../../server/src/runtime.js';
import { InitialStateReader, anonymous } from './initial-state.js';
import { PageDrawer } from './page-drawer.js';
import { productPageDescriber, type DescribeProduct } from './routes/page-descriptions.js';
import { pageEdition } from './stored-pages.js';
import { webDistDir } from './web-client.js';
import { loadRenderer, type Theme } from './server-render.js';

/** How many pages a claim takes at once (one stamp for them all). */
const BATCH = 16;
/** While the process answers requests without a pause, at most one page is drawn every this many ms (requests go first, drawing never stops; a page costs a few ms of the event loop). */
const BUSY_PACE_MS = 100;
/** How often the queue is swept besides the changes that ask for it (pages growing old, a missed notice). */
const SWEEP_MS = 60 * 60_000;

export interface BackgroundPagesDeps {
  pages: ProductPages;
  drawer: PageDrawer;
  describe: DescribeProduct;
  edition: PageEdition;
  orm: MikroORM;
  /** The requests this process answers (a worker answers none): drawing makes room for them. */
  foreground: Pick<Foreground, 'busy' | 'whenIdle'>;
  log: Logger;
}

/**
 * The product pages drawn when the catalogue changes, not when someone asks: in the processes that
 * run the background jobs (`APP_ROLE` `worker` or `all`), one page at a time, each drawn exactly as a
 * request draws it (the same drawer and description, for an anonymous visitor) and stored compressed
 * for every process (ProductPages). It runs at start (a new shop, or a new build, draws its
 * catalogue), when a change queues pages (a notice from any process), and hourly; the pages to draw
 * are claimed in PostgreSQL, so several processes share the work without drawing a page twice.
 */
export class BackgroundPages {
  private running: Promise<void> | null = null;
  private again = false;
  private sweepNeeded = false;
  private stopped = false;
  private lastPage = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Pages drawn and stored, and pages found not to be kept (a hidden product): for the logs and tests. */
  readonly stats = { drawn: 0, skipped: 0 };

  constructor(private readonly deps: BackgroundPagesDeps) {}

  start(): void {
    this.kick(true);
    this.timer = setInterval(() => this.kick(true), SWEEP_MS);
    this.timer.unref();
  }

  /** Draws what is queued (after a sweep, when `sweep`: every product page changed, or the hourly look). */
  kick(sweep = false): void {
    if (sweep) this.sweepNeeded = true;
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'drawing product pages in the background failed; trying again at the next change'))
      .finally(() => {
        this.running = null;
        if (this.again) this.kick();
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async run(): Promise<void> {
    const { pages, edition, log } = this.deps;
    do {
      this.again = false;
      if (this.sweepNeeded) {
        this.sweepNeeded = false;
        const queued = await pages.sweep(edition);
        if (queued) log.info({ queued }, 'product pages queued to be drawn in the background');
      }
      for (;;) {
        const { work, stamp } = await pages.claim(BATCH);
        if (!work.length) break;
        const started = performance.now();
        for (const item of work) {
          // A claim left undrawn lapses and is taken again (by this process or another).
          if (this.stopped) return;
          await this.makeRoom();
          await this.draw(item, stamp);
        }
        log.debug({ pages: work.length, ms: Math.round(performance.now() - started) }, 'product pages drawn in the background');
      }
    } while (this.again && !this.stopped);
  }

  /** Lets the event loop turn (requests in), and while requests keep coming, waits for a pause or for the pace. */
  private async makeRoom(): Promise<void> {
    await nextTurn();
    const { foreground } = this.deps;
    for (;;) {
      const wait = this.lastPage + BUSY_PACE_MS - performance.now();
      if (!foreground.busy || wait <= 0 || this.stopped) break;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([foreground.whenIdle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]);
      clearTimeout(timer);
    }
    this.lastPage = performance.now();
  }

  private async draw(work: PageWork, stamp: string): Promise<void> {
    const { orm, drawer, describe, pages, edition, log } = this.deps;
    const visitor = anonymous(createSystemContext({ em: orm.em.fork(), log, task: 'product-page' }));
    const page = await drawer.draw(visitor, {
      url: `/product/${work.productId}`,
      theme: work.theme as Theme,
      page: 'product',
      describe: (shop, locale) => describe(visitor, work.productId, shop, locale),
    });
    // Only what a request would keep for everyone is stored (not a hidden product's 404).
    const kept = page.status === 200 && page.cacheable && page.html !== null;
    await pages.store(work, stamp, edition.build, kept ? await CachedAnswer.formsOf(page.html!) : null);
    if (kept) this.stats.drawn++;
    else this.stats.skipped++;
  }
}

/**
 * Starts drawing product pages in the background in this process, its renderer loaded first (see
 * loadRenderer): woken by the notices of any process's changes (see ProductPages.onChange), stopped
 * with the process.
 */
export async function startBackgroundPages(config: AppConfig, runtime: Runtime, schema: GraphQLSchema, log: Logger): Promise<BackgroundPages> {
  const { services, feed, orm } = runtime;
  const web = webDistDir();
  await loadRenderer(web, log);
  const background = new BackgroundPages({
    pages: services.productPages,
    drawer: new PageDrawer(web, new InitialStateReader(schema, services, log), services.settings, config.publicUrl),
    describe: productPageDescriber(services, config.publicUrl),
    edition: pageEdition(web, config.publicUrl),
    orm,
    foreground: services.foreground,
    log,
  });
  feed.onSignal(PRODUCT_PAGES_QUEUED_SIGNAL, () => background.kick());
  feed.onSignal(PRODUCT_PAGES_STALE_SIGNAL, () => background.kick(true));
  background.start();
  runtime.onStop(() => background.stop());
  return background;
}
