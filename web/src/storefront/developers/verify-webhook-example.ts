/**
 * The webhook verification example of /developers, as the page shows it: a module for Node that a
 * reader copies as it is. tests/unit/developers-webhook-example.test.ts runs this very text against
 * deliveries signed with a known secret, so what the page teaches is what works.
 */
export const VERIFY_WEBHOOK_EXAMPLE = `import crypto from 'node:crypto';

const TOLERANCE_SECONDS = 5 * 60;

/** Whether a delivery is the shop's: signed with the endpoint's secret, and recent. */
export function verifyWebhook(rawBody, signatureHeader, secret, now = Date.now()) {
  const fields = new Map(
    String(signatureHeader).split(',').map((part) => part.trim().split('=', 2)),
  );
  const t = fields.get('t');
  const v1 = fields.get('v1');
  if (!t || !/^\\d+$/.test(t) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return false;
  if (Math.abs(now / 1000 - Number(t)) > TOLERANCE_SECONDS) return false;
  const expected = crypto.createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
`;

/** How a receiver uses it: the body as it came (before any JSON parsing), then the event. */
export const RECEIVE_WEBHOOK_EXAMPLE = `import express from 'express';
import { verifyWebhook } from './verify-webhook.js';

const app = express();
const handled = new Set(); // Keep these in your database: a delivery can come more than once.

app.post('/hooks/art-song', express.raw({ type: 'application/json' }), (req, res) => {
  const secret = process.env.ART_SONG_WEBHOOK_SECRET;
  if (!verifyWebhook(req.body, req.get('ArtSong-Signature'), secret)) return res.sendStatus(400);
  const event = JSON.parse(req.body.toString('utf8'));
  if (!handled.has(event.id)) {
    handled.add(event.id);
    console.log(event.type, event.data); // Your work here; answer within 10 seconds.
  }
  res.sendStatus(204);
});

app.listen(3000);
`;
