import crypto from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ChangePublisher, ReadCache } from './read-cache.js';

/** The channel of changes, and the one on which each process says it has dropped a change's keys. */
const CHANGES = 'artsong_cache_changes';
const ACKS = 'artsong_cache_acks';
export const CHANGES_CHANNEL = CHANGES;
export const ACKS_CHANNEL = ACKS;
/**
 * Other notices between processes on the same connection (a signal's name is its payload). A
 * transaction may send one itself (`select pg_notify(SIGNAL_CHANNEL, name)`): PostgreSQL delivers it
 * only if the transaction commits.
 */
const SIGNALS = 'artsong_signals';
export const SIGNAL_CHANNEL = SIGNALS;
/** The listener connections name themselves so, so that a writer can count who must acknowledge. */
export const FEED_APPLICATION_NAME = 'artsong-cache-feed';
/** The longest a write waits for every process to drop what it changed. */
const ACK_TIMEOUT_MS = 2000;
const RECONNECT_MS = 500;
/** The longest the listener may take to connect and listen. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * The feed's own heartbeat: a notice the listener sends to itself through the database every
 * HEARTBEAT_MS. One that has not come back after HEARTBEAT_TIMEOUT_MS means the connection is dead
 * even if no error says so (a NAT or proxy that dropped it silently): the cache goes off at once and
 * the listener reconnects.
 */
export interface HeartbeatTiming {
  intervalMs: number;
  timeoutMs: number;
}
export const HEARTBEAT: HeartbeatTiming = { intervalMs: 2000, timeoutMs: 3000 };
/** TCP keepalive on the listener's socket, so that the kernel too notices a dead peer. */
const KEEPALIVE_DELAY_MS = 5000;

type Execute = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

interface Waiting {
  needed: number;
  got: number;
  resolve: () => void;
}

/**
 * Keeps the read caches of every process on one database coherent, through PostgreSQL LISTEN/NOTIFY
 * on one dedicated connection per process (no other server). A write, after its commit, notifies the
 * keys it changed; every listening process drops them and acknowledges; the writer answers its
 * caller once every listener counted at notify time has acknowledged (or after a short bound), so a
 * write is seen by the very next read from any process. While the connection is down the cache is
 * bypassed; it starts empty when the connection is back.
 *
 * A connection can also die without a word (a NAT or a proxy forgetting it): the listener then hears
 * nothing, not even an error, and would serve its cache for ever. So it sends itself a heartbeat
 * through the database every couple of seconds; a heartbeat that does not come back turns the cache
 * off and the listener reconnects. TCP keepalive is on as well, and every cache entry has a time
 * limit of its own (see ReadCache).
 */
export class ChangeFeed implements ChangePublisher {
  private client: pg.Client | null = null;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly waiting = new Map<string, Waiting>();
  private readonly signalHandlers = new Map<string, () => void>();
  /** This process's heartbeat channel (only it listens there). */
  private readonly heartbeatChannel = `artsong_feed_${crypto.randomBytes(8).toString('hex')}`;
  private heartbeat: NodeJS.Timeout | null = null;
  /** When the heartbeat in flight was sent (null: none in flight), and when the last one was. */
  private heartbeatSentAt: number | null = null;
  private lastHeartbeatAt = 0;
  /** The server process of a listener that went silent: it may linger on the server and be counted as a listener, so it is ended once a new one listens. */
  private silentBackend: number | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: ReadCache,
    private readonly execute: Execute,
    private readonly log: Logger,
    private readonly timing: HeartbeatTiming = HEARTBEAT,
  ) {}

  async start(): Promise<void> {
    this.cache.connect(this);
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopHeartbeat();
    this.cache.setActive(false);
    const client = this.client;
    this.client = null;
    for (const waiting of this.waiting.values()) waiting.resolve();
    if (client) await closeClient(client);
  }

  /** Calls `handler` whenever any process (this one included) sends the signal `name`. */
  onSignal(name: string, handler: () => void): void {
    this.signalHandlers.set(name, handler);
  }

  /** Tells every listening process `name` (e.g. that there is mail to send); a failure is only logged. */
  async signal(name: string): Promise<void> {
    await this.execute('select pg_notify(?, ?)', [SIGNALS, name]).catch((error: unknown) => this.log.warn({ err: error, signal: name }, 'could not send a notice to the other processes'));
  }

  async publish(keys: string[]): Promise<void> {
    const id = crypto.randomUUID();
    const done = new Promise<void>((resolve) => this.waiting.set(id, { needed: Infinity, got: 0, resolve }));
    let timer: NodeJS.Timeout | undefined;
    try {
      let row: Record<string, unknown> | undefined;
      try {
        [row] = await this.execute(
          `select pg_notify(?, ?) as sent, (select count(*)::int from pg_stat_activity where application_name = ? and datname = current_database()) as listeners`,
          [CHANGES, JSON.stringify({ id, keys }), FEED_APPLICATION_NAME],
        );
      } catch (error) {
        // The write has committed; without the database no process serves from its cache (their feeds are down too).
        this.log.warn({ err: error, keys }, 'could not announce a cache change');
        return;
      }
      const waiting = this.waiting.get(id)!;
      waiting.needed = Number(row?.listeners ?? 0);
      // Without a listener of our own the acknowledgements cannot reach us: the others drop the keys on their own time.
      if (!this.client || waiting.got >= waiting.needed) return;
      await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_TIMEOUT_MS)))]);
      if (waiting.got < waiting.needed) this.log.warn({ keys, acknowledged: waiting.got, listeners: waiting.needed }, 'not every process acknowledged a cache change in time');
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: FEED_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    client.on('error', (error) => this.lost(client, error.message, error));
    client.on('end', () => this.lost(client, 'the connection ended'));
    client.on('notification', (message) => this.receive(client, message));
    try {
      const listening = (async () => {
        await client.connect();
        await client.query(`LISTEN ${CHANGES}; LISTEN ${ACKS}; LISTEN ${SIGNALS}; LISTEN ${this.heartbeatChannel}`);
      })();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([listening, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('listening took too long')), CONNECT_TIMEOUT_MS)))]).finally(() => clearTimeout(timer));
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => {});
      await closeClient(client);
      this.log.warn({ err: error }, 'the cache change feed could not listen; reading without the cache for now');
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await closeClient(client);
      return;
    }
    this.client = client;
    this.cache.setActive(true);
    this.startHeartbeat(client);
    if (this.silentBackend !== null) {
      const pid = this.silentBackend;
      this.silentBackend = null;
      client.query('select pg_terminate_backend(pid) from pg_stat_activity where pid = $1 and application_name = $2', [pid, FEED_APPLICATION_NAME]).catch(() => {});
    }
  }

  /** The listener's connection is gone (or silent): the cache goes off until a new one listens. */
  private lost(client: pg.Client, reason: string, error?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.stopHeartbeat();
    this.cache.setActive(false);
    if (this.stopped) return;
    this.log.warn({ err: error, reason }, 'the cache change feed lost its database connection; reading without the cache until it is back');
    const backend = (client as unknown as { processID?: number }).processID;
    if (!error && backend) this.silentBackend = backend;
    client.removeAllListeners('notification');
    void closeClient(client);
    this.scheduleReconnect();
  }

  private startHeartbeat(client: pg.Client): void {
    this.stopHeartbeat();
    this.heartbeatSentAt = null;
    this.lastHeartbeatAt = Date.now();
    const tick = Math.max(50, Math.min(this.timing.intervalMs, this.timing.timeoutMs) / 2);
    this.heartbeat = setInterval(() => {
      const now = Date.now();
      if (this.heartbeatSentAt !== null) {
        if (now - this.heartbeatSentAt > this.timing.timeoutMs) this.lost(client, `no heartbeat for ${now - this.heartbeatSentAt} ms`);
        return;
      }
      if (now - this.lastHeartbeatAt < this.timing.intervalMs) return;
      this.heartbeatSentAt = now;
      // Through the listening connection itself: if it is dead, the heartbeat never comes back.
      client.query('select pg_notify($1, $2)', [this.heartbeatChannel, String(now)]).catch(() => {});
    }, tick);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.heartbeatSentAt = null;
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  private receive(client: pg.Client, message: pg.Notification): void {
    if (message.channel === this.heartbeatChannel) {
      if (this.client !== client) return;
      this.heartbeatSentAt = null;
      this.lastHeartbeatAt = Date.now();
      return;
    }
    if (message.channel === ACKS) {
      const waiting = this.waiting.get(message.payload ?? '');
      if (waiting && ++waiting.got >= waiting.needed) waiting.resolve();
      return;
    }
    if (message.channel === SIGNALS) {
      this.signalHandlers.get(message.payload ?? '')?.();
      return;
    }
    if (message.channel !== CHANGES) return;
    let change: { id?: string; keys: string[] };
    try {
      change = JSON.parse(message.payload ?? '');
      if (!Array.isArray(change.keys)) return;
    } catch {
      return;
    }
    this.cache.invalidate(change.keys);
    // Changes the database announces itself (triggers, see the ecard_page_changes migration) wait for nobody.
    if (change.id) client.query('select pg_notify($1, $2)', [ACKS, change.id]).catch(() => {});
  }
}

/** Closes a client, also one whose socket hangs (a silent peer): after a short wait its socket is destroyed. */
async function closeClient(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = client.end().catch(() => {});
  const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)));
  await Promise.race([ended, gaveUp]);
  clearTimeout(timer);
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
