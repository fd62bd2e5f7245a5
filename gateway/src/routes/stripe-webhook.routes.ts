import express, { type RequestHandler } from 'express';
import type { Services } from '../../../server/src/services.js';

/**
 * POST /api/payments/stripe/webhook: Stripe's signed events. The body is kept raw (the signature is
 * over its exact bytes), so this is mounted ahead of the API router's JSON parser.
 */
export function stripeWebhookRoute({ stripeWebhooks }: Services): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: '1mb' }),
    async (req, res, next) => {
      try {
        await stripeWebhooks.handle(req.ctx, req.body, req.get('stripe-signature'));
        res.json({ received: true });
      } catch (error) {
        next(error);
      }
    },
  ];
}
