import type { Services } from '../../../server/src/services.js';
import { AppError } from '../../../server/src/core/errors.js';
import { renderSignNotFound, renderSignPage, SIGN_PAGE_SCRIPT } from '../../../server/src/modules/group-card/sign-page.js';
import { preferredLocale } from '../../../server/src/rules/index.js';
import { sendHtml } from '../http-cache.js';
import type { RouteDef } from '../route.js';

/**
 * `/sign/{token}`: the signing page of a group card, drawn by the server for each visit (it shows the
 * signatures so far and whether signing is still open, and it is light: no framework), never kept by
 * a shared cache and never indexed. Like purchased e-cards, it works whatever the site's mode.
 */
export function signPageRoutes({ groupCards }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/sign/sign.js',
      access: 'public',
      async handler(_ctx, _req, res) {
        res.type('text/javascript; charset=utf-8').setHeader('Cache-Control', 'public, max-age=3600');
        res.send(SIGN_PAGE_SCRIPT);
      },
    },
    {
      method: 'get',
      path: '/sign/:token',
      access: 'public',
      async handler(ctx, req, res) {
        const token = String(req.params.token);
        res.setHeader('X-Robots-Tag', 'noindex');
        try {
          const view = await groupCards.view(ctx, token);
          sendHtml(req, res, 200, renderSignPage(view, token), 'private, no-store');
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
          sendHtml(req, res, 404, renderSignNotFound(preferredLocale(req.headers['accept-language'])), 'private, no-store');
        }
      },
    },
  ];
}
