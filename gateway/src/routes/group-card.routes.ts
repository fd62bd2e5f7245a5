import type { Services } from '../../../server/src/services.js';
import type { GroupCardSignature } from '../../../server/src/modules/group-card/group-card.entity.js';
import { body, parsePathId, type RouteDef } from '../route.js';
import { notFound } from '../../../server/src/core/errors.js';

const signatureJson = (signature: GroupCardSignature) => ({ id: signature.id, name: signature.name, message: signature.message });

/** A signature's id in the path (NOT_FOUND for anything that is not one). */
const signatureId = (value: unknown): number => {
  const id = parsePathId(value);
  if (id === null) throw notFound('Signature');
  return id;
};

/** Signing a group card by its link (contract section 14): the REST twin of groupCard, signGroupCard, updateSignature and removeSignature. */
export function groupCardRoutes({ groupCards }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/sign/:token',
      access: 'public',
      async handler(ctx, req, res) {
        const { card, item, status, signatures } = await groupCards.view(ctx, String(req.params.token));
        res.json({
          product_name: item.name,
          recipient_name: item.recipientName,
          closes_at: card.collectUntil.toISOString(),
          status,
          signature_count: signatures.length,
          max_signatures: 100,
          signatures: signatures.map(signatureJson),
        });
      },
    },
    {
      method: 'post',
      path: '/sign/:token/signatures',
      access: 'public',
      async handler(ctx, req, res) {
        const input = body(req);
        const { signature, editToken } = await groupCards.sign(ctx, String(req.params.token), { name: input.name, message: input.message, invite: input.invite }, req.get('idempotency-key'));
        res.status(201).json({ id: signature.id, edit_token: editToken });
      },
    },
    {
      method: 'put',
      path: '/sign/:token/signatures/:id',
      access: 'public',
      async handler(ctx, req, res) {
        const input = body(req);
        const signature = await groupCards.update(ctx, String(req.params.token), signatureId(req.params.id), req.get('x-edit-token'), { name: input.name, message: input.message });
        res.json(signatureJson(signature));
      },
    },
    {
      method: 'delete',
      path: '/sign/:token/signatures/:id',
      access: 'public',
      async handler(ctx, req, res) {
        await groupCards.remove(ctx, String(req.params.token), signatureId(req.params.id), req.get('x-edit-token'));
        res.status(204).end();
      },
    },
  ];
}
