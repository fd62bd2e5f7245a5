import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../server/src/modules/mail/mailer.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

/**
 * MAIL_MAX_PER_SECOND is kept by when a message starts at the mail server (its MAIL FROM), as a
 * provider counts it: the mailer composes first and waits for its send time (`ready`) only then, so
 * the time composing takes on a busy process does not push a send past its slot.
 */
let sink: SmtpSink;
let mailer: Mailer;

beforeAll(async () => {
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.url, outboxDir: '/nonexistent', from: 'Art & Song Cards <cards@example.com>', domain: 'example.com', poolSize: 1 });
});
afterAll(async () => {
  mailer?.close();
  await sink?.stop();
});

describe('the mailer', () => {
  it('starts a message at the server only once its send time (`ready`) has come', async () => {
    const mail = (id: string) => ({ id, to: `${id}@example.net`, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' });
    // The pool's connection is open before the timed send.
    await mailer.send(mail('warm'));
    let readyAt = 0;
    const sending = mailer.send(mail('timed'), async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      readyAt = Date.now();
    });
    await sending;
    const arrival = sink.arrivals.find((a) => a.messageId === 'timed@example.com');
    expect(arrival).toBeDefined();
    expect(readyAt).toBeGreaterThan(0);
    expect(arrival!.startedAt).toBeGreaterThanOrEqual(readyAt);
    expect(sink.arrivals.map((a) => a.messageId)).toEqual(['warm@example.com', 'timed@example.com']);
  });
});
