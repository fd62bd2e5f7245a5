import type { Request } from 'express';
import type { Services } from '../../../server/src/services.js';
import { renderEcardPage } from '../../../server/src/modules/ecard/ecard-page.js';
import { renderPreviewExpired } from '../../../server/src/modules/ecard/ecard-withdrawn.js';
import { body, withRestFields, type RouteDef } from '../route.js';

/** A preview is the sender's alone: kept by no cache, never indexed. */
const PRIVATE = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

const previewInput = (req: Request) => {
  const input = body(req);
  return { productId: input.product_id, personalisation: input.personalisation };
};

/**
 * Preview before paying (contract section 15): the e-card page as the recipient will see it, drawn
 * from a product and the personalisation placeOrder takes, and "Send a test to myself".
 */
export function cardPreviewRoutes({ cardPreviews }: Services): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/ecards/preview',
      access: 'storefront',
      async handler(ctx, req, res) {
        const card = await withRestFields(cardPreviews.draw(ctx, previewInput(req)), { productId: 'product_id' });
        // In the language of the page that asks (the storefront sends its own as Accept-Language).
        res.set(PRIVATE).status(200).type('html').send(renderEcardPage(card, { preview: true, repliesLeft: 0, locale: ctx.locale }));
      },
    },
    {
      method: 'post',
      path: '/ecards/preview/send',
      access: 'user',
      async handler(ctx, req, res) {
        const sent = await withRestFields(cardPreviews.sendTest(ctx, previewInput(req)), { productId: 'product_id' });
        res.set(PRIVATE).status(202).json({ to: sent.to });
      },
    },
  ];
}

/** The page a test e-mail's link opens (`/ecards/preview?card=…`, signed, a week long). */
export function cardPreviewPageRoutes({ cardPreviews }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/ecards/preview',
      access: 'public',
      async handler(ctx, req, res) {
        const token = typeof req.query.card === 'string' ? req.query.card : '';
        const card = token ? await cardPreviews.open(ctx, token) : null;
        res.set(PRIVATE);
        if (!card) return void res.status(404).type('html').send(renderPreviewExpired(ctx.locale));
        res.status(200).type('html').send(renderEcardPage(card, { preview: true, repliesLeft: 0, locale: card.locale }));
      },
    },
  ];
}
