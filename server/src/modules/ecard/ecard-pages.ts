import crypto from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import { CachedAnswer, type StoredForms } from '../../core/read-cache.js';
import type { Foreground } from '../../core/foreground.js';
import { LOCALES } from '../../rules/index.js';
import type { CardMedia } from '../orders/index.js';
import { renderEcardPage, type EcardView } from './ecard-page.js';
import { pageStateOf, WAITING, WAITING_BATCH } from './ecard-page-state.js';

/** What the database signals when a card's kept page was forgotten (migration `ecard_page_bytes`). */
export const ECARD_PAGES_SIGNAL = 'ecard-pages';

/** The longest the drawer waits for the process to finish answering before it draws the next page anyway. */
const YIELD_MS = 20;
/** Pages the drawer draws at once (of the pool's ten connections, it takes at most this many). */
const DRAWN_AT_ONCE = 4;
const KEPT = { name: 'ecard-page-kept', text: `select etag, length, br, gzip from ecard_page where item_url_uuid = $1 and drawing = $2 and br is not null` };
// Stored only at the generation the drawing read: a change committed since (a reply, a refund, a signature) moved it on.
const KEEP = {
  name: 'ecard-page-keep',
  text: `insert into ecard_page as p (item_url_uuid, generation, drawing, etag, length, br, gzip, drawn_at) values ($1, greatest($2::int, 0), $3, $4, $5, $6, $7, now())
         on conflict (item_url_uuid) do update set drawing = excluded.drawing, etag = excluded.etag, length = excluded.length, br = excluded.br, gzip = excluded.gzip, drawn_at = excluded.drawn_at
         where p.generation = $2::int`,
};
const OUTDATED = `update ecard_page set generation = generation + 1, drawing = null, etag = null, length = null, br = null, gzip = null, drawn_at = null where br is not null and drawing is distinct from $1`;

/** Keeps a card's page drawn from its rows as they were at `generation`; false when a change since moved it on (nothing is kept). */
export async function keepPage(pool: pg.Pool, uuid: string, generation: number, forms: StoredForms): Promise<boolean> {
  const { etag, length, br, gzip } = forms;
  return ((await pool.query({ ...KEEP, values: [uuid, generation, drawingFingerprint(), etag, length, br, gzip] })).rowCount ?? 0) > 0;
}

let fingerprint: string | null = null;
/**
 * What the page's drawing looks like in this release: the hash of a sample card drawn in every
 * language, with and without signatures and thank-yous. Pages kept by another release (another
 * template, other styles or words) do not match it and are drawn again.
 */
export function drawingFingerprint(): string {
  if (fingerprint) return fingerprint;
  const media: CardMedia = { path: 'uploads/sample.png', name: 'Sample', mimeType: 'image/png', width: 600, height: 800 };
  const hash = crypto.createHash('sha1');
  for (const locale of LOCALES) {
    const view: EcardView = { card: { messageLocation: 'middle-center', fontName: 'Open Sans', cover: media, greeting: media, back: null, extras: [media], songs: [media] }, name: 'Sample', recipientName: 'R', senderName: 'S', message: 'M', deliveredAt: new Date(0), itemUrlUuid: '00000000-0000-0000-0000-000000000000', order: { locale } };
    hash.update(renderEcardPage(view, { preview: false, repliesLeft: 1, signatures: [{ name: 'N', message: 'M' }] }));
    hash.update(renderEcardPage(view, { preview: false, repliesLeft: 0 }));
  }
  return (fingerprint = hash.digest('hex'));
}

/**
 * A card's page as its recipient opens it, kept drawn in PostgreSQL (`ecard_page`: its ETag and its
 * brotli and gzip forms) so that a first opening in any process is one indexed read of ready bytes.
 * The database forgets a card's bytes in the very transaction that changes what its page shows (see
 * the migration `ecard_page_bytes`); the processes that run jobs then draw the delivered cards'
 * pages again in the background, making room for the requests they answer (a card delivered
 * overnight is drawn before its recipient opens it). An opening that finds no bytes draws the page
 * itself and keeps it.
 */
export class EcardPages {
  private pool: pg.Pool | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(private readonly options: { log: Logger; yieldTo?: Pick<Foreground, 'whenIdle'> }) {}

  /** Reads and keeps pages in this pool's database from now on (the ORM's own pool). */
  connect(pool: pg.Pool): void {
    this.pool = pool;
  }

  /** The page of a card as its recipient opens it (kept, else drawn now and kept); null when the card shows none, or before `connect`. */
  async page(uuid: string): Promise<CachedAnswer | null> {
    if (!this.pool) return null;
    const kept = (await this.pool.query<StoredForms>({ ...KEPT, values: [uuid, drawingFingerprint()] })).rows[0];
    return kept ? CachedAnswer.stored('html', kept) : this.draw(this.pool, uuid);
  }

  /** Draws the delivered cards' pages that are not kept, now and whenever the database signals a change (processes that run jobs). */
  start(): void {
    this.stopped = false;
    const pool = this.pool;
    if (!pool) return;
    // Pages kept by another release are drawn again.
    this.running = pool
      .query(OUTDATED, [drawingFingerprint()])
      .then(
        () => undefined,
        (error: unknown) => this.options.log.warn({ err: error }, 'could not forget the e-card pages of an earlier release'),
      )
      .then(() => this.drawWaiting())
      .finally(() => (this.running = null));
  }

  /** Draws what waits (again, after the current pass, when a pass is running). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drawWaiting().finally(() => (this.running = null));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async drawWaiting(): Promise<void> {
    const pool = this.pool!;
    do {
      this.again = false;
      // One pass in the order of the cards' keys: a page that cannot be drawn now is not tried again in the same pass.
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const rows = await pool.query<{ uuid: string }>({ ...WAITING, values: [after] }).then((result) => result.rows, (error: unknown) => {
          this.options.log.warn({ err: error }, 'could not read the e-card pages waiting to be drawn');
          return [];
        });
        // A few at a time: each waits on two round trips (its state, its keeping) that the others' drawing fills.
        for (let i = 0; i < rows.length; i += DRAWN_AT_ONCE) {
          if (this.stopped) return;
          await Promise.race([this.options.yieldTo?.whenIdle(), new Promise((resolve) => setTimeout(resolve, YIELD_MS))]);
          await Promise.all(rows.slice(i, i + DRAWN_AT_ONCE).map(({ uuid }) => this.draw(pool, uuid).catch((error: unknown) => this.options.log.warn({ err: error, uuid }, 'could not draw an e-card page'))));
        }
        if (rows.length < WAITING_BATCH) break;
        after = rows.at(-1)!.uuid;
      }
    } while (this.again && !this.stopped);
  }

  /** Draws a card's page from its state and keeps it at the generation it read (a failure to keep it is only logged). */
  private async draw(pool: pg.Pool, uuid: string): Promise<CachedAnswer | null> {
    const state = await pageStateOf(pool, uuid);
    if (!state) return null;
    // Both forms made in zlib's thread pool, as the product pages drawn in the background are: the drawer leaves the event loop to requests.
    const forms = await CachedAnswer.formsOf(renderEcardPage(state.view, { preview: false, repliesLeft: state.repliesLeft, signatures: state.signatures }));
    const answer = CachedAnswer.stored('html', forms);
    await keepPage(pool, uuid, state.generation, forms).catch((error: unknown) => this.options.log.warn({ err: error, uuid }, 'could not keep an e-card page'));
    return answer;
  }
}
