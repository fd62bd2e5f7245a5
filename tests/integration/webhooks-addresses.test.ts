import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedRange, systemLookup } from '../../server/src/modules/webhooks/webhook-address.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Where webhooks may go (contract section 19, without WEBHOOK_ALLOW_PRIVATE): a URL that names or
 * resolves to a loopback, private, link-local, unspecified or carrier-grade NAT address (or an
 * IPv4-mapped form of one) is refused when the endpoint is created, and again at delivery, where the
 * shop resolves the name itself: a name pointed at 127.0.0.1 after the endpoint was made, or an
 * endpoint that names such an address, reaches nothing, and its delivery fails with the reason.
 */

let app: TestApp;
let admin: string;
let receiver: WebhookReceiver;
/** Where `rebind.test` points (the test moves it). */
let rebindTo = '93.184.216.34';

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  app = await startTestApp({}, { webhookLookup: async (host) => (host === 'rebind.test' ? [{ address: rebindTo, family: 4 }] : systemLookup(host)) });
  admin = await app.login();
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
});

const create = async (url: string) => {
  const res = await app.request('/api/admin/webhooks', { method: 'POST', token: admin, json: { url, events: ['customer.created'] } });
  return { status: res.status, body: await res.json() };
};

describe('addresses', () => {
  it('that are not public are refused when an endpoint is created, with what they are; nothing is written', async () => {
    const refused: [string, string][] = [
      [`http://localhost:${receiver.port}/hook`, 'localhost resolves to 127.0.0.1, a loopback address'],
      ['http://[::1]/hook', '::1 is a loopback address'],
      ['http://10.0.0.1/hook', '10.0.0.1 is a private address'],
      ['http://172.16.5.4/hook', '172.16.5.4 is a private address'],
      ['http://192.168.1.20/hook', '192.168.1.20 is a private address'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
      ['http://[fe80::1]/hook', 'fe80::1 is a link-local address'],
      ['http://[fd12:3456::1]/hook', 'fd12:3456::1 is a private address'],
      ['http://100.64.0.7/hook', '100.64.0.7 is a carrier-grade NAT address'],
      ['http://0.0.0.0/hook', '0.0.0.0 is an unspecified address'],
      ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1 is a loopback address'],
      ['http://[::ffff:169.254.169.254]/hook', '::ffff:a9fe:a9fe is a link-local address'],
      // Written another way, still the loopback address (the URL parser makes it 127.0.0.1).
      ['http://2130706433/hook', '127.0.0.1 is a loopback address'],
    ];
    for (const [url, what] of refused) {
      expect(await create(url), url).toEqual({ status: 400, body: { code: 'BAD_USER_INPUT', field: 'url', message: `${what}: webhooks go to public internet addresses only.` } });
    }
    expect(await app.sql('select id from webhook_endpoint')).toEqual([]);
    // Public addresses are taken, and a name that does not resolve now (it is checked at every delivery).
    expect((await create('http://93.184.216.34/hook')).status).toBe(201);
    expect((await create('https://hooks.example.com/art-song')).status).toBe(201);
    expect((await create('http://[2606:4700::6810:84e5]/hook')).status).toBe(201);
  });

  it('are classified by their range, IPv4-mapped and -compatible forms by the address they carry', () => {
    expect(refusedRange('8.8.8.8')).toBeNull();
    expect(refusedRange('2606:4700::1')).toBeNull();
    expect(refusedRange('127.0.0.53')).toBe('loopback');
    expect(refusedRange('::ffff:10.1.2.3')).toBe('private');
    expect(refusedRange('::7f00:1')).toBe('IPv4-compatible');
    expect(refusedRange('64:ff9b::a00:1')).toBe('IPv4-translated');
    expect(refusedRange('224.0.0.1')).toBe('multicast');
    expect(refusedRange('::')).toBe('unspecified');
  });

  it('that are not public are refused at delivery: a name pointed at 127.0.0.1 later, or an endpoint naming one, reaches nothing', async () => {
    const rebound = await create(`http://rebind.test:${receiver.port}/rebound`);
    expect(rebound.status).toBe(201);
    rebindTo = '127.0.0.1';
    // Endpoints made before the rule (or while WEBHOOK_ALLOW_PRIVATE was on): every process is told they exist.
    await app.sql(`insert into webhook_endpoint (url, events, secret) values ($1, '{customer.created}', 'whsec_x'), ($2, '{customer.created}', 'whsec_y')`, [`http://localhost:${receiver.port}/named`, `http://127.0.0.1:${receiver.port}/literal`]);
    await app.services.webhookEvents.changed();

    await app.customer('refused');
    const outcomes = async () =>
      app.sql<{ url: string; status: string; attempts: number; last_error: string | null; next_attempt_at: Date | null }>(
        `select p.url, d.status, d.attempts, d.last_error, d.next_attempt_at from webhook_delivery d join webhook_endpoint p on p.id = d.endpoint_id where p.url like '%' || $1 || '%' order by p.id`,
        [`:${receiver.port}/`],
      );
    await expect.poll(async () => (await outcomes()).map((o) => o.status)).toEqual(['failed', 'failed', 'failed']);
    expect(await outcomes()).toEqual([
      { url: `http://rebind.test:${receiver.port}/rebound`, status: 'failed', attempts: 1, last_error: 'Refused: rebind.test resolves to 127.0.0.1, a loopback address', next_attempt_at: null },
      { url: `http://localhost:${receiver.port}/named`, status: 'failed', attempts: 1, last_error: 'Refused: localhost resolves to 127.0.0.1, a loopback address', next_attempt_at: null },
      { url: `http://127.0.0.1:${receiver.port}/literal`, status: 'failed', attempts: 1, last_error: 'Refused: 127.0.0.1 is a loopback address', next_attempt_at: null },
    ]);
    expect(receiver.received).toEqual([]);
  });
});
