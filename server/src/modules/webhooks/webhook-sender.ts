import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { checkedLookup, ipLiteral, refusal, RefusedAddressError, type HostLookup } from './webhook-address.js';

/** A delivery as it goes out: its event and the endpoint's URL and secret. */
export interface OutgoingEvent {
  eventId: string;
  type: string;
  createdAt: Date;
  /** The event's data as JSON text (as PostgreSQL keeps it). */
  data: string;
  url: string;
  secret: string;
}

/** What became of one attempt: a 2xx, or the status or error that made it fail. */
export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** Its address was refused (see webhook-address.ts): nothing was sent, and it is not tried again. */
  refused?: boolean;
}

export interface SenderOptions {
  allowPrivate: boolean;
  lookup: HostLookup;
  /** The most requests in flight at once (and sockets kept per host). */
  concurrency: number;
  /** How long an endpoint has to answer (default 10 s). */
  timeoutMs?: number;
}

export const USER_AGENT = 'ArtSong-Webhooks/1';
const TIMEOUT_MS = 10_000;
/** Endpoint URLs kept parsed at most. */
const MAX_TARGETS = 1000;

/** The body of a delivery: `{id, type, created_at, data}`, the same bytes on every attempt. */
export function deliveryBody(event: Pick<OutgoingEvent, 'eventId' | 'type' | 'createdAt' | 'data'>): string {
  return `{"id":${JSON.stringify(event.eventId)},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(event.createdAt.toISOString())},"data":${event.data}}`;
}

/** The ArtSong-Signature header: `t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{body}" with the secret}`. */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * POSTs deliveries over kept-alive connections (one agent per scheme for the process). Every new
 * connection resolves its host through the address check and connects to an address it checked;
 * a URL that names an address is checked before anything is sent. Redirects are not followed (a 3xx
 * is a failed attempt). Success is a 2xx within the timeout.
 */
export class WebhookSender {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly timeoutMs: number;

  constructor(private readonly options: SenderOptions) {
    const lookup = checkedLookup(options) as unknown as http.AgentOptions['lookup'];
    const common = { keepAlive: true, maxSockets: options.concurrency, maxFreeSockets: options.concurrency, lookup };
    this.agents = { http: new http.Agent(common), https: new https.Agent(common) };
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  }

  /** Each endpoint's URL parsed and, when it names an address, judged: once, not per delivery. */
  private readonly targets = new Map<string, { url: URL; refused: string | null } | null>();

  private target(href: string): { url: URL; refused: string | null } | null {
    let target = this.targets.get(href);
    if (target === undefined) {
      let url: URL | null = null;
      try {
        url = new URL(href);
      } catch {
        // Not a URL: every delivery to it fails.
      }
      const literal = url && ipLiteral(url.hostname);
      target = url && { url, refused: literal && !this.options.allowPrivate ? (refusal(literal, [{ address: literal }])?.message ?? null) : null };
      if (this.targets.size >= MAX_TARGETS) this.targets.clear();
      this.targets.set(href, target);
    }
    return target;
  }

  async send(event: OutgoingEvent, now: Date): Promise<SendOutcome> {
    const target = this.target(event.url);
    if (!target) return { ok: false, statusCode: null, error: 'The URL is not valid' };
    if (target.refused) return { ok: false, statusCode: null, error: target.refused, refused: true };
    const url = target.url;
    const body = deliveryBody(event);
    const secure = url.protocol === 'https:';
    return new Promise<SendOutcome>((resolve) => {
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.agents.https : this.agents.http,
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': USER_AGENT,
          'artsong-event-id': event.eventId,
          'artsong-signature': signatureHeader(event.secret, body, now),
        },
      });
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        // What the endpoint says is not read, only drained, so that its connection can carry the next delivery.
        response.resume();
        response.on('error', () => undefined);
        resolve(status >= 200 && status < 300 ? { ok: true, statusCode: status, error: null } : { ok: false, statusCode: status, error: `The endpoint answered ${status}` });
      });
      request.on('error', (error) => resolve({ ok: false, statusCode: null, error: describe(error, this.timeoutMs), refused: error instanceof RefusedAddressError }));
      request.end(body);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** A failed attempt's error in words (what the console shows). */
function describe(error: Error & { code?: string }, timeoutMs: number): string {
  if (error instanceof RefusedAddressError) return error.message;
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR') return `No answer within ${timeoutMs / 1000} s`;
  if (error.code === 'ECONNREFUSED') return 'The connection was refused';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'The host name does not resolve';
  if (error.code === 'ECONNRESET') return 'The connection was reset';
  return error.message || String(error);
}
