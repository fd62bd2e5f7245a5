import type { Services } from '../../../server/src/services.js';
import { ECARD_SCRIPT, renderEcardNotFound, renderEcardPage } from '../../../server/src/modules/ecard/ecard-page.js';
import { renderEcardWithdrawn } from '../../../server/src/modules/ecard/ecard-withdrawn.js';
import type { RouteDef } from '../route.js';

/** Purchased e-cards: standalone server-rendered pages, viewable whatever the site's mode. */
export function ecardPageRoutes({ ecards, ecardLoop, refunds }: Services): RouteDef[] {
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
        const match = /^(.+)\.html$/.exec(String(req.params.file));
        const preview = req.query.preview !== undefined && req.query.preview !== '0';
        const item = match ? await ecards.open(ctx, match[1]!) : null;
        // Personal pages: never cached by shared caches, never indexed.
        res.setHeader('Cache-Control', 'private, no-cache');
        res.setHeader('X-Robots-Tag', 'noindex');
        res.type('html');
        if (!item && match && (await refunds.isWithdrawn(ctx, match[1]!))) {
          res.status(410).send(renderEcardWithdrawn());
          return;
        }
        if (!item) {
          res.status(404).send(renderEcardNotFound());
          return;
        }
        // A preview (the purchaser's or an admin's) neither reports an opening nor takes a thank-you.
        res.send(renderEcardPage(item, { preview, repliesLeft: preview ? 0 : await ecardLoop.repliesLeft(ctx, item) }));
      },
    },
  ];
}
