import { CachedAnswer, CacheKeys } from '../../../server/src/core/read-cache.js';
import type { Services } from '../../../server/src/services.js';
import { ECARD_SCRIPT, renderEcardNotFound, renderEcardPage } from '../../../server/src/modules/ecard/ecard-page.js';
import { renderEcardWithdrawn } from '../../../server/src/modules/ecard/ecard-withdrawn.js';
import { preferredLocale } from '../../../server/src/rules/index.js';
import { preferredEncoding, sendAnswer, type ReplyPolicy } from '../http-cache.js';
import type { RouteDef } from '../route.js';

/** Personal pages: kept by no shared cache, never indexed; revalidated (a cheap 304) on every visit. */
export const ECARD_POLICY: ReplyPolicy = { cacheControl: 'private, no-cache', vary: 'Accept-Encoding', extra: ['X-Robots-Tag', 'noindex'] };

/** The card an e-card address names, and whether it asks for the preview; null when it names none. */
export function ecardAddressOf(url: string): { uuid: string; preview: boolean; key: string } | null {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const match = /^\/ecards\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.html$/i.exec(path);
  if (!match) return null;
  // As the address reads: `?preview` (any value but 0) asks for the purchaser's preview.
  const values = new URLSearchParams(query < 0 ? '' : url.slice(query + 1)).getAll('preview');
  const preview = values.length > 0 && !(values.length === 1 && values[0] === '0');
  const uuid = match[1]!.toLowerCase();
  return { uuid, preview, key: `${CacheKeys.ecard(uuid)}${preview ? 'preview' : 'card'}` };
}

/**
 * Purchased e-cards: standalone server-rendered pages, viewable whatever the site's mode. A card's
 * page is kept drawn in the database (ecard-pages.ts: a first opening in any process reads its ready
 * bytes) and in the read cache (answered ahead of Express when it is there, like the storefront's
 * pages); both are dropped when its card changes: a reply, a refund, a delivery, a signature,
 * anything written to its rows (the database announces those, see the migrations
 * `ecard_page_changes` and `ecard_page_bytes`). Previews, missing and withdrawn cards are drawn as before.
 */
export function ecardPageRoutes({ ecards, ecardPages, ecardLoop, refunds, cache, groupCards }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/ecards/ecard.js',
      access: 'public',
      async handler(_ctx, _req, res) {
        res.type('text/javascript; charset=utf-8').setHeader('Cache-Control', 'public, max-age=3600');
        res.send(ECARD_SCRIPT);
      },
    },
    {
      method: 'get',
      path: '/ecards/:file',
      access: 'public',
      async handler(ctx, req, res) {
        const address = ecardAddressOf(req.originalUrl);
        const uuid = address?.uuid ?? /^(.+)\.html$/.exec(String(req.params.file))?.[1] ?? null;
        const draw = async (): Promise<CachedAnswer | { status: number; html: string }> => {
          // The card as its recipient opens it: its page kept drawn in the database (one indexed read), else drawn now and kept.
          const kept = address && !address.preview ? await ecardPages.page(address.uuid) : null;
          if (kept) return kept;
          const item = uuid ? await ecards.open(ctx, uuid) : null;
          const withdrawn = !item && uuid ? await refunds.withdrawnIn(ctx, uuid) : null;
          if (withdrawn) return { status: 410, html: renderEcardWithdrawn(withdrawn) };
          if (!item) return { status: 404, html: renderEcardNotFound(preferredLocale(req.headers['accept-language'])) };
          // A preview (the purchaser's or an admin's) neither reports an opening nor takes a thank-you.
          const preview = address?.preview ?? (req.query.preview !== undefined && req.query.preview !== '0');
          const [repliesLeft, signatures] = await Promise.all([preview ? 0 : ecardLoop.repliesLeft(ctx, item), groupCards.signaturesOf(ctx, item)]);
          return CachedAnswer.html(renderEcardPage(item, { preview, repliesLeft, signatures }), preferredEncoding(req.headers['accept-encoding']));
        };
        const outcome = address ? await cache.read(address.key, draw, { keep: (value) => value instanceof CachedAnswer }) : await draw();
        if (outcome instanceof CachedAnswer) return sendAnswer(req, res, outcome, ECARD_POLICY);
        res.setHeader('Cache-Control', ECARD_POLICY.cacheControl);
        res.setHeader('X-Robots-Tag', 'noindex');
        res.status(outcome.status).type('html').send(outcome.html);
      },
    },
  ];
}
