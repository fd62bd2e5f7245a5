import type { Services } from '../../../server/src/services.js';
import { body, queryText, type RouteDef } from '../route.js';

/** The unsubscribe link's API (the `/unsubscribe` page calls it). */
export function consentRoutes({ recipients }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/unsubscribe',
      access: 'public',
      async handler(ctx, req, res) {
        const link = await recipients.describe(ctx, queryText(req.query.token));
        res.json({ masked_email: link.maskedEmail, unsubscribed: link.unsubscribed });
      },
    },
    {
      method: 'post',
      path: '/unsubscribe',
      access: 'public',
      async handler(ctx, req, res) {
        const link = await recipients.unsubscribe(ctx, body(req).token);
        res.json({ message: 'You are unsubscribed.', masked_email: link.maskedEmail, unsubscribed: true });
      },
    },
  ];
}

/**
 * RFC 8058's one-click unsubscribe: mail programs POST `List-Unsubscribe=One-Click` to the very
 * address of the `List-Unsubscribe` header (`/unsubscribe?token=…`), with no cookie and no page.
 * It unsubscribes at once (200); a GET of the same address is the page, drawn by the web client.
 */
export function oneClickUnsubscribeRoutes({ recipients, settings }: Services): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/unsubscribe',
      access: 'public',
      async handler(ctx, req, res) {
        const link = await recipients.unsubscribe(ctx, queryText(req.query.token));
        const shop = await settings.publicShop(ctx);
        res.setHeader('Cache-Control', 'no-store');
        res.type('text/plain').send(`Unsubscribed: ${link.maskedEmail} gets no more e-mail from ${shop.name}.\n`);
      },
    },
  ];
}
