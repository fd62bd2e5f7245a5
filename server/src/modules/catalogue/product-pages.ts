import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { StoredAnswer, StoredForms } from '../../core/cached-answer.js';
import { THEMES } from '../../core/cache-keys.js';
import { idArray, preparedRead, runPrepared } from '../../db/prepared.js';
import { DEFAULT_LOCALE } from '../../rules/locales.js';

/** A product page as stored: its strong ETag, its plain length and its compressed forms. */
export type StoredPage = StoredForms;

/** One page to draw, as claimed. */
export interface PageWork {
  productId: number;
  theme: string;
  locale: string;
}

/** Which pages: the client build they are drawn with (a page of another build is never read), and the themes and language drawn. */
export interface PageEdition {
  build: string;
  themes: readonly string[];
  locale: string;
}

/** The notices between processes (see ChangeFeed.signal): pages were queued; every product page changed (a sweep must queue them). */
export const PRODUCT_PAGES_QUEUED_SIGNAL = 'product-pages-queued';
export const PRODUCT_PAGES_STALE_SIGNAL = 'product-pages-stale';

/** How long a claim on a page to draw lasts: a process that died drawing leaves its pages to the others after this. */
const CLAIM_SECONDS = 60;
/** The last bound on a stored page's age, should a change ever be missed: a page older is not read, and is drawn again. */
const STORED_HOURS = 24;
/** Pages older than this are drawn again by the sweep, before readers stop taking them. */
const REDRAW_HOURS = STORED_HOURS / 2;
/** The stamp row that stands for every product (a change to what every product page shows). */
const EVERY_PRODUCT = 0;

const PRODUCT_PAGE_KEY = /^page:product:(\d+):/;

/** The stamp of a product's last change (its own, or one to every product): a page drawn before it is old. */
const LAST_CHANGE = (product: string) => `coalesce((select max(s.changed) from product_page_stamp s where s.product_id in (0, ${product})), 0)`;

const READ_PAGE = preparedRead('product_page_read', `
select p.etag, p.length, case when $5::boolean then p.br end as br, case when $5::boolean then null else p.gzip end as gzip from product_page p
where p.product_id = $1 and p.theme = $2 and p.locale = $3 and p.build = $4
  and p.drawn_at > now() - interval '${STORED_HOURS} hours'
  and p.drawn_from > ${LAST_CHANGE('$1')}`);

/**
 * Product pages drawn in the background and kept in PostgreSQL, where every process reads them
 * (tables product_page, product_page_stamp and product_page_work, see their migration). Correctness
 * rests on stamps from one sequence: a drawing takes a stamp before it reads anything; a change takes
 * one after its commit (before any process drops its memory of the page); a page is read only if it was
 * drawn from a stamp later than its product's last change. So once a write has answered, no reader can
 * take a page drawn from data older than the write, whatever the order in which drawings finish.
 *
 * What to draw is a queue: a product's change queues its pages; a change to what every product page
 * shows (a setting, a category, a product type, a media rename) and a process's start ask for a sweep,
 * which queues every active product whose page is missing, old or of another build. The processes
 * that draw claim pages with FOR UPDATE SKIP LOCKED (a lease), so two never draw the same page at once.
 */
export class ProductPages {
  private em: EntityManager | null = null;
  private onQueued: ((every: boolean) => void) | null = null;

  constructor(private readonly log: Logger) {}

  /** Connects the store to the database (a fork of its own: every statement here runs on its own). */
  connect(em: EntityManager): void {
    this.em = em;
  }

  /** Called once a change queued pages (`every`: it changed every product page, a sweep must find them), e.g. to wake the processes that draw. */
  onChange(handler: (every: boolean) => void): void {
    this.onQueued = handler;
  }

  /**
   * After a write has committed, before any process drops it from memory (see ReadCache.changed):
   * stamps the products whose pages it changed (from the cache keys it names) and queues their pages
   * (the English ones in every theme: the languages' pages are drawn on request, see PageEdition).
   */
  readonly changed = async (keys: string[]): Promise<void> => {
    const em = this.em;
    if (!em) return;
    const every = keys.some((key) => key === '*' || key === 'page:');
    const ids = every ? [EVERY_PRODUCT] : [...new Set(keys.flatMap((key) => PRODUCT_PAGE_KEY.exec(key)?.[1] ?? []).map(Number))];
    if (!ids.length) return;
    try {
      await em.execute(
        `with stamp as (select nextval('product_page_stamp_seq') as value),
        stamped as (
          insert into product_page_stamp (product_id, changed) select id, (select value from stamp) from unnest(?::int[]) as id
          on conflict (product_id) do update set changed = excluded.changed returning changed)
        insert into product_page_work (product_id, theme, locale, queued)
        select p.id, t.theme, ?, (select max(changed) from stamped) from product p cross join unnest(?::text[]) as t(theme)
        where p.id = any(?::int[]) and p.id <> ${EVERY_PRODUCT} and p.status = 'active'
        on conflict (product_id, theme, locale) do update set queued = excluded.queued, claimed_until = null`,
        [idArray(ids), DEFAULT_LOCALE, `{${THEMES.join(',')}}`, idArray(ids)],
      );
      // A product gone or hidden keeps no page.
      if (!every) await em.execute(`delete from product_page p where p.product_id = any(?::int[]) and not exists (select 1 from product where id = p.product_id and status = 'active')`, [idArray(ids)]);
    } catch (error) {
      this.log.warn({ err: error, keys }, 'could not mark the stored product pages a change made old');
      return;
    }
    this.onQueued?.(every);
  };

  /**
   * The page stored for a product in `theme`, if it was drawn after the product's last change with
   * this build: in br when `br`, else in gzip (only the form the caller takes crosses the wire).
   */
  async read(em: EntityManager, productId: number, theme: string, edition: PageEdition, br: boolean): Promise<StoredAnswer | null> {
    const [row] = await runPrepared<StoredAnswer>(em, READ_PAGE, [productId, theme, edition.locale, edition.build, br]);
    return row ? { ...row, length: Number(row.length) } : null;
  }

  /** Queues every active product whose page in this edition is missing, old or of another build; the number queued. */
  async sweep(edition: PageEdition): Promise<number> {
    const em = this.connected();
    const [row] = await em.execute<{ n: number }[]>(
      `with queued as (
        insert into product_page_work (product_id, theme, locale, queued)
        select p.id, t.theme, ?, (select last_value from product_page_stamp_seq) from product p cross join unnest(?::text[]) as t(theme)
        where p.status = 'active' and not exists (
          select 1 from product_page pp where pp.product_id = p.id and pp.theme = t.theme and pp.locale = ? and pp.build = ?
            and pp.drawn_at > now() - interval '${REDRAW_HOURS} hours' and pp.drawn_from > ${LAST_CHANGE('p.id')})
        on conflict (product_id, theme, locale) do nothing returning 1)
      select count(*)::int as n from queued`,
      [edition.locale, `{${edition.themes.join(',')}}`, edition.locale, edition.build],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * Claims up to `limit` pages to draw (SKIP LOCKED: pages another process is claiming are left to
   * it), and then takes the stamp their drawing starts from: every change queued before the claim has
   * a smaller stamp, so what is drawn now counts as drawn after them.
   */
  async claim(limit: number): Promise<{ work: PageWork[]; stamp: string }> {
    const em = this.connected();
    const rows = await em.execute<{ product_id: number; theme: string; locale: string }[]>(
      `update product_page_work w set claimed_until = now() + interval '${CLAIM_SECONDS} seconds'
      from (select product_id, theme, locale from product_page_work where claimed_until is null or claimed_until < now()
            order by product_id, theme limit ? for update skip locked) c
      where w.product_id = c.product_id and w.theme = c.theme and w.locale = c.locale
      returning w.product_id, w.theme, w.locale`,
      [limit],
    );
    if (!rows.length) return { work: [], stamp: '0' };
    const [stamp] = await em.execute<{ value: string }[]>(`select nextval('product_page_stamp_seq')::text as value`);
    return { work: rows.map((row) => ({ productId: Number(row.product_id), theme: row.theme, locale: row.locale })), stamp: stamp!.value };
  }

  /**
   * Keeps a page drawn from `stamp` (null: the product has no page everyone may be given, e.g. it is
   * hidden), unless a page drawn later is there already; the work is done unless a change queued it
   * again since the stamp.
   */
  async store(work: PageWork, stamp: string, build: string, page: StoredPage | null): Promise<void> {
    const em = this.connected();
    if (page) {
      await em.execute(
        `insert into product_page (product_id, theme, locale, build, drawn_from, etag, length, br, gzip) values (?, ?, ?, ?, ?, ?, ?, ?, ?)
        on conflict (product_id, theme, locale) do update set build = excluded.build, drawn_from = excluded.drawn_from, drawn_at = now(),
          etag = excluded.etag, length = excluded.length, br = excluded.br, gzip = excluded.gzip
        where product_page.drawn_from < excluded.drawn_from`,
        [work.productId, work.theme, work.locale, build, stamp, page.etag, page.length, page.br, page.gzip],
      );
    }
    await em.execute(`delete from product_page_work where product_id = ? and theme = ? and locale = ? and queued < ?`, [work.productId, work.theme, work.locale, stamp]);
  }

  /** How many pages wait to be drawn (claimed or not). */
  async waiting(): Promise<number> {
    const [row] = await this.connected().execute<{ n: number }[]>('select count(*)::int as n from product_page_work');
    return Number(row?.n ?? 0);
  }

  private connected(): EntityManager {
    if (!this.em) throw new Error('the product page store is not connected to the database');
    return this.em;
  }
}
