import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Foreground } from '../../server/src/core/foreground.js';

/** The requests a process is answering, as the mail queue sees them (it makes room for them). */
describe('Foreground', () => {
  let server: http.Server | null = null;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
    server = null;
  });

  /** A server that counts its requests and answers each only when the test says so. */
  async function serve(foreground: Foreground) {
    const pending: http.ServerResponse[] = [];
    server = http.createServer((req, res) => {
      foreground.track(req, res);
      pending.push(res);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, pending };
  }

  it('is busy from a request until its answer is sent, and tells who waits for that', async () => {
    const foreground = new Foreground();
    const { url, pending } = await serve(foreground);
    expect(foreground.busy).toBe(false);
    await foreground.whenIdle();

    const first = fetch(url).then((res) => res.text());
    const second = fetch(url).then((res) => res.text());
    await expect.poll(() => pending.length, { timeout: 10_000 }).toBe(2);
    expect(foreground.busy).toBe(true);
    // Busy since the first of them arrived.
    const since = foreground.busySince;
    expect(since).toBeTypeOf('number');
    expect(since).toBeLessThanOrEqual(performance.now());
    let idle = false;
    const waiting = foreground.whenIdle().then(() => (idle = true));

    pending[0]!.end('one');
    expect(await first).toBe('one');
    expect(foreground.busy).toBe(true);
    expect(foreground.busySince).toBe(since);
    expect(idle).toBe(false);

    pending[1]!.end('two');
    expect(await second).toBe('two');
    await waiting;
    expect(foreground.busy).toBe(false);
    expect(foreground.busySince).toBeNull();
    // A new stretch starts with the next request.
    const third = fetch(url).then((res) => res.text());
    await expect.poll(() => pending.length, { timeout: 10_000 }).toBe(3);
    expect(foreground.busySince).toBeGreaterThan(since!);
    pending[2]!.end('three');
    expect(await third).toBe('three');
  });

  it('stops counting a request whose client went away before its answer', async () => {
    const foreground = new Foreground();
    const { url, pending } = await serve(foreground);
    const aborted = new AbortController();
    const request = fetch(url, { signal: aborted.signal }).catch((error: unknown) => error);
    await expect.poll(() => pending.length, { timeout: 10_000 }).toBe(1);
    expect(foreground.busy).toBe(true);
    aborted.abort();
    await request;
    await foreground.whenIdle();
    expect(foreground.busy).toBe(false);
  });

  it('counts work begun by hand until it ends, once however often it is ended', async () => {
    const foreground = new Foreground();
    const end = foreground.begin();
    const other = foreground.begin();
    end();
    end();
    expect(foreground.busy).toBe(true);
    other();
    expect(foreground.busy).toBe(false);
  });
});
