import crypto from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ChangePublisher, ReadCache } from './read-cache.js';

/** The channel of changes, and the one on which each process says it has dropped a change's keys. */
const CHANGES = 'artsong_cache_changes';
const ACKS = 'artsong_cache_acks';
/** The listener connections name themselves so, so that a writer can count who must acknowledge. */
export const FEED_APPLICATION_NAME = 'artsong-cache-feed';
/** The longest a write waits for every process to drop what it changed. */
const ACK_TIMEOUT_MS = 2000;
const RECONNECT_MS = 500;

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
 */
export class ChangeFeed implements ChangePublisher {
  private client: pg.Client | null = null;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: ReadCache,
    private readonly execute: Execute,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.cache.connect(this);
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.cache.setActive(false);
    const client = this.client;
    this.client = null;
    for (const waiting of this.waiting.values()) waiting.resolve();
    await client?.end().catch(() => {});
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
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: FEED_APPLICATION_NAME });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      this.cache.setActive(false);
      if (this.stopped) return;
      this.log.warn({ err: error }, 'the cache change feed lost its database connection; reading without the cache until it is back');
      client.end().catch(() => {});
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => this.receive(client, message));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES}; LISTEN ${ACKS}`);
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
      this.log.warn({ err: error }, 'the cache change feed could not listen; reading without the cache for now');
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.cache.setActive(true);
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
    if (message.channel === ACKS) {
      const waiting = this.waiting.get(message.payload ?? '');
      if (waiting && ++waiting.got >= waiting.needed) waiting.resolve();
      return;
    }
    if (message.channel !== CHANGES) return;
    let change: { id: string; keys: string[] };
    try {
      change = JSON.parse(message.payload ?? '');
    } catch {
      return;
    }
    this.cache.invalidate(change.keys);
    client.query('select pg_notify($1, $2)', [ACKS, change.id]).catch(() => {});
  }
}
