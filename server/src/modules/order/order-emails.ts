import { html, type SafeHtml } from '../../core/html.js';
import type { OrderItem } from './order-item.entity.js';
import { ecardPath } from './order-item.entity.js';
import type { Order } from './order.entity.js';

export interface MailContent {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const page = (title: string, body: SafeHtml) =>
  html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="margin:0;padding:24px;background:#f4f1ec;font-family:Georgia,serif;color:#2b2b2b">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:12px;padding:32px">${body}
<p style="margin-top:32px;font-size:13px;color:#777">Art &amp; Song Cards — beautiful greetings without the wait.</p></div></body></html>`.value;

/** The e-mail that brings a card to its recipient. */
export function cardEmail(item: OrderItem, baseUrl: string): MailContent {
  const link = baseUrl + ecardPath(item.itemUrlUuid!);
  const from = item.senderName ?? 'Someone';
  const subject = `${from} sent you a card: ${item.name}`;
  return {
    to: item.recipientEmail!,
    subject,
    text: `Dear ${item.recipientName},\n\n${from} sent you an e-greeting card with music.\n\nOpen your card: ${link}\n\nArt & Song Cards — beautiful greetings without the wait.\n`,
    html: page(
      subject,
      html`<h1 style="font-weight:normal">Dear ${item.recipientName},</h1>
<p>${from} sent you an e-greeting card with music: <strong>${item.name}</strong>.</p>
<p style="margin:32px 0"><a href="${link}" style="background:#b0413e;color:#fff;padding:14px 24px;border-radius:8px;text-decoration:none">Open your card</a></p>
<p style="font-size:13px;color:#777">Or paste this address into your browser: ${link}</p>`,
    ),
  };
}

/** The purchaser's receipt, with a link to each card. */
export function receiptEmail(order: Order, items: OrderItem[], baseUrl: string): MailContent {
  const subject = `Your Art & Song Cards order ${order.id.slice(0, 8).toUpperCase()}`;
  const when = (item: OrderItem) => (item.deliverAt && item.deliverAt > order.createdAt ? `on ${item.deliverAt.toISOString().slice(0, 10)}` : 'now');
  const lines = items.map((item) => {
    const card = item.itemUrlUuid ? ` — to ${item.recipientName} <${item.recipientEmail}>, sent ${when(item)}: ${baseUrl}${ecardPath(item.itemUrlUuid)}?preview=1` : '';
    return `${item.quantity} × ${item.name}  $${item.lineTotal}${card}`;
  });
  return {
    to: order.purchaserEmail,
    subject,
    text: `Thank you for your order.\n\nOrder number: ${order.id}\n\n${lines.join('\n')}\n\nTotal: $${order.total}\nPaid with card ending ${order.cardLast4 ?? '—'}\n\nOrder details: ${baseUrl}/order-confirmation/${order.id}\n`,
    html: page(
      subject,
      html`<h1 style="font-weight:normal">Thank you for your order</h1>
<p>Order number: <code>${order.id}</code></p>
<table style="width:100%;border-collapse:collapse">${items.map(
        (item) => html`<tr><td style="padding:8px 0;border-bottom:1px solid #eee">${item.quantity} × ${item.name}${
          item.itemUrlUuid
            ? html`<br><span style="font-size:13px;color:#777">to ${item.recipientName}, sent ${when(item)} · <a href="${baseUrl}${ecardPath(item.itemUrlUuid)}?preview=1">view the card</a></span>`
            : ''
        }</td><td style="padding:8px 0;border-bottom:1px solid #eee;text-align:right">$${item.lineTotal}</td></tr>`,
      )}
<tr><td style="padding:8px 0"><strong>Total</strong></td><td style="padding:8px 0;text-align:right"><strong>$${order.total}</strong></td></tr></table>
<p>Paid with card ending ${order.cardLast4 ?? '—'}. <a href="${baseUrl}/order-confirmation/${order.id}">Order details</a></p>`,
    ),
  };
}
