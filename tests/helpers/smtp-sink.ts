/**
 * A real SMTP server (the `smtp-server` package) for tests and the delivery bench: it takes every
 * message and notes its Message-ID, recipient, size and the moment its DATA ended (when a provider
 * counts it) and the moment its sender started it (MAIL FROM). A test can make it answer a message with an SMTP error (4xx, 5xx) or stall mid-DATA.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  messageId: string;
  to: string;
  subject: string;
  /** When DATA ended (ms since the epoch). */
  at: number;
  /** When the message's MAIL FROM came in: when its sender started it (ms since the epoch). */
  startedAt: number;
  bytes: number;
  /** The message as it came (its first 16 KiB: the headers and, for a usual e-mail, its parts). */
  message: string;
}

/** What the server does with the next message: take it, refuse it with a code, or never answer its DATA. */
export type Verdict = { accept: true; delayMs?: number } | { code: number; message: string } | { stall: true };

export interface SmtpSink {
  url: string;
  port: number;
  arrivals: Arrival[];
  /** Decides each message from its headers (default: take it). */
  verdict: (headers: { messageId: string; to: string; subject: string }) => Verdict;
  /** Called after each accepted message. */
  onArrival: ((arrival: Arrival) => void) | null;
  /** DATA phases started and never answered (stalled). */
  stalled: number;
  stop(): Promise<void>;
}

const header = (head: string, name: string) => new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head)?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim() ?? '';

export async function startSmtpSink(options: { port?: number } = {}): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: '',
    port: 0,
    arrivals: [],
    verdict: () => ({ accept: true }),
    onArrival: null,
    stalled: 0,
    stop: async () => {},
  };
  const started = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 50 * 1024 * 1024,
    maxClients: 1000,
    closeTimeout: 200,
    onMailFrom(_address, session, callback) {
      started.set(session.id, Date.now());
      callback();
    },
    onData(stream, session, callback) {
      const startedAt = started.get(session.id) ?? Date.now();
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        // Only the head is kept (the headers); the rest is counted.
        if (size < 16_384) chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('end', () => {
        const head = Buffer.concat(chunks).toString('utf8');
        const cut = head.search(/\r?\n\r?\n/);
        const headers = cut >= 0 ? head.slice(0, cut) : head;
        const facts = { messageId: header(headers, 'Message-ID').replace(/^<|>$/g, ''), to: header(headers, 'To'), subject: header(headers, 'Subject') };
        const verdict = sink.verdict(facts);
        if ('stall' in verdict) {
          sink.stalled++;
          return; // never answered: the client's timeout ends it
        }
        if ('code' in verdict) {
          const error = Object.assign(new Error(verdict.message), { responseCode: verdict.code });
          callback(error);
          return;
        }
        const take = () => {
          const arrival = { ...facts, at: Date.now(), startedAt, bytes: size, message: head };
          sink.arrivals.push(arrival);
          sink.onArrival?.(arrival);
          callback();
        };
        if (verdict.delayMs) setTimeout(take, verdict.delayMs);
        else take();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  sink.port = (server.server.address() as AddressInfo).port;
  sink.url = `smtp://127.0.0.1:${sink.port}`;
  sink.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
