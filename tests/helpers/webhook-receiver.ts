import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a receiver took: its path, headers and raw body, with the event id and type the body names. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  eventId: string;
  type: string;
  at: number;
}

/**
 * A webhook endpoint for tests (a plain `node:http` server on 127.0.0.1): it records every delivery
 * and answers what `status` says for it (200 unless told), after `delayMs` when set.
 */
export interface WebhookReceiver {
  /** `http://127.0.0.1:{port}`; a path of one's own tells endpoints apart. */
  url: string;
  port: number;
  received: Received[];
  /** The HTTP status for a delivery (default 200). */
  status: (delivery: Received) => number;
  delayMs: number;
  /** The deliveries to one path. */
  to(path: string): Received[];
  stop(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    status: () => 200,
    delayMs: 0,
    to: (path) => receiver.received.filter((delivery) => delivery.path === path),
    stop: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let parsed: { id?: string; type?: string } = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        // Recorded as it came; the test says what it makes of it.
      }
      const delivery: Received = { path: req.url ?? '/', headers: req.headers, body, eventId: String(parsed.id ?? ''), type: String(parsed.type ?? ''), at: Date.now() };
      receiver.received.push(delivery);
      const answer = () => {
        res.statusCode = receiver.status(delivery);
        res.end('{}');
      };
      if (receiver.delayMs) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  receiver.stop = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
