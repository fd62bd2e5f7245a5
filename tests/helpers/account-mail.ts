import { expect } from 'vitest';
import { outbox } from './order-fixtures.js';
import type { TestApp } from './test-app.js';

/** The header of a raw e-mail (folded lines joined), or undefined. */
export function mailHeader(eml: string, name: string): string | undefined {
  const head = eml.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The e-mails in the outbox to `to` whose subject is `subject`, oldest first (by their queue id). */
export function mailsTo(app: TestApp, to: string, subject: string): string[] {
  return [...outbox(app).entries()]
    .filter(([, eml]) => mailHeader(eml, 'To') === to && mailHeader(eml, 'Subject') === subject)
    .sort(([a], [b]) => Number(/-(\d+)\.eml$/.exec(a)?.[1]) - Number(/-(\d+)\.eml$/.exec(b)?.[1]))
    .map(([, eml]) => eml);
}

/** Waits for the n-th e-mail to `to` with `subject` (the queue sends it soon) and answers it. */
export async function waitForMail(app: TestApp, to: string, subject: string, count = 1): Promise<string> {
  await expect.poll(() => mailsTo(app, to, subject).length, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(count);
  return mailsTo(app, to, subject)[count - 1]!;
}

/** The first link to `path` (e.g. `/reset-password`) in an e-mail, as a URL. */
export function linkIn(eml: string, path: string): URL {
  const match = new RegExp(`https?://[^\\s"<>]+${path.replace(/[/]/g, '\\/')}\\?token=[A-Za-z0-9_-]+`).exec(eml);
  if (!match) throw new Error(`No ${path} link in the e-mail`);
  return new URL(match[0]);
}

/** Waits until the queue has nothing due left (sent, withheld, dropped or failed) and the worker is at rest. */
export async function queueIdle(app: TestApp): Promise<void> {
  await expect.poll(async () => (await app.sql(`select id from mail_job where status in ('queued', 'sending') and due_at <= now()`)).length, { timeout: 30_000, interval: 200 }).toBe(0);
  // A run still settling (or looking up its next due time) is joined, so that its queries end here.
  await app.services.deliveries.runDue();
}
