import type { Services } from '../../../server/src/services.js';
import { body, type RouteDef } from '../route.js';

/** What the e-card page sends back: its opening (a beacon once the card has rendered) and thank-you replies. */
export function ecardLoopRoutes({ ecardLoop }: Services): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/ecards/:uuid/opened',
      access: 'public',
      async handler(ctx, req, res) {
        await ecardLoop.recordOpening(ctx, String(req.params.uuid));
        res.setHeader('Cache-Control', 'no-store');
        res.status(204).end();
      },
    },
    {
      method: 'post',
      path: '/ecards/:uuid/replies',
      access: 'public',
      async handler(ctx, req, res) {
        const input = body(req);
        const reply = await ecardLoop.reply(ctx, String(req.params.uuid), { name: input.name, message: input.message });
        res.setHeader('Cache-Control', 'no-store');
        res.status(201).json({ id: reply.id, name: reply.name, message: reply.message, created_at: reply.createdAt.toISOString() });
      },
    },
  ];
}
