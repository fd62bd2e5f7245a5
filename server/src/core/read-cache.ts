import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';

/** Answers smaller than this are sent as they are (compressing them saves less than it costs). */
export const COMPRESS_MIN_BYTES = 1024;
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };

/**
 * A storefront answer as it goes out: the JSON bytes, their strong ETag, and (above
 * COMPRESS_MIN_BYTES) their br and gzip forms, all made once when the answer is made, never per request.
 */
export interface JsonAnswer {
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * A copy of `bytes` in memory of its own and of its exact size. Small Buffers are slices of a shared
 * 8 kB pool, and zlib's results slices of its 16 kB output chunk: kept for long in the cache, each
 * would hold the whole block alive.
 */
function owned(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

export function jsonAnswer(json: string): JsonAnswer {
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
  body.write(json);
  const etag = `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
  if (body.length < COMPRESS_MIN_BYTES) return { body, etag };
  return { body, etag, br: owned(zlib.brotliCompressSync(body, BROTLI)), gzip: owned(zlib.gzipSync(body, { level: 6 })) };
}

/** The keys of the shop's cached reads: one per entity or page, so that a write can name what it changed. */
export const CacheKeys = {
  settings: 'settings',
  tree: 'tree',
  product: (id: number) => `product:${id}`,
  /** Every page and list of one category (a prefix). */
  category: (id: number) => `category:${id}:`,
  categoryList: (id: number) => `category:${id}:all`,
  /** Whole GraphQL answers (a prefix): any catalogue change drops them. */
  graphql: 'gql:',
  /** Everything (a media rename or delete changes paths wherever the file is used). */
  all: '*',
} as const;

export interface ReadCacheOptions {
  /** The memory bound of the cached values, in bytes. */
  maxBytes: number;
}

interface Entry {
  value: unknown;
  size: number;
}

/** Spreads a change to every process (see ChangeFeed); resolves once every process has dropped the keys. */
export interface ChangePublisher {
  publish(keys: string[]): Promise<void>;
}

/**
 * The process's cache of storefront reads, in front of the database, bounded in bytes (LRU). REST and
 * GraphQL read through it alike. It is only used while the change feed is listening: a process that
 * could miss another's invalidation reads from the database instead, and starts empty again when the
 * feed comes back.
 *
 * Keys name entities (`product:12`, `category:5:all`, `tree`, `settings`); a key ending in ':' names
 * every key below it, and '*' everything.
 */
export class ReadCache {
  private readonly lru: LRUCache<string, Entry>;
  /** Loads in flight, shared by concurrent callers of one key. */
  private readonly loading = new Map<string, Promise<unknown>>();
  /** Bumped by every invalidation: a load that began before it must not store its (possibly old) answer. */
  private generation = 0;
  private enabled = false;
  private publisher: ChangePublisher | null = null;
  /** Lookups answered from memory, and answers loaded (and stored) because they were not there: for /metrics. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(options: ReadCacheOptions) {
    this.lru = new LRUCache<string, Entry>({ maxSize: options.maxBytes, sizeCalculation: (entry) => Math.max(1, entry.size) });
  }

  /** Whether reads are served from memory (the change feed is up). */
  get active(): boolean {
    return this.enabled;
  }

  get size(): number {
    return this.lru.size;
  }

  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** Called by the change feed: on when it listens (starting empty), off when it lost its connection. */
  setActive(active: boolean): void {
    this.clearLocal();
    this.enabled = active;
  }

  connect(publisher: ChangePublisher): void {
    this.publisher = publisher;
  }

  /** The cached value of `key`, or what `load` gives (stored unless a write came in meanwhile). */
  async read<T>(key: string, load: () => Promise<T>, sizeOf: (value: T) => number): Promise<T> {
    if (!this.enabled) return load();
    const hit = this.lru.get(key);
    if (hit) {
      this.stats.hits++;
      return hit.value as T;
    }
    const pending = this.loading.get(key);
    if (pending) return pending as Promise<T>;
    this.stats.misses++;
    const generation = this.generation;
    const promise = load().then(
      (value) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        if (this.enabled && generation === this.generation) this.lru.set(key, { value, size: sizeOf(value) });
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  /** The cached value of `key`, if any (for answers stored by the gateway, e.g. GraphQL). */
  peek<T>(key: string): T | undefined {
    if (!this.enabled) return undefined;
    const entry = this.lru.get(key);
    if (entry) this.stats.hits++;
    return entry?.value as T | undefined;
  }

  /** The current generation, to hand back to `store` once an answer made outside `read` is ready. */
  mark(): number {
    return this.generation;
  }

  store(key: string, value: unknown, size: number, since: number): void {
    this.stats.misses++;
    if (this.enabled && since === this.generation) this.lru.set(key, { value, size });
  }

  /**
   * After a write has committed: drops the keys here and in every other process, and resolves once
   * they are gone everywhere (bounded), so that the next read from any process sees the write.
   */
  async changed(keys: string[]): Promise<void> {
    this.invalidate(keys);
    await this.publisher?.publish(keys);
  }

  /** Drops keys in this process (what the change feed calls for every change, its own included). */
  invalidate(keys: string[]): void {
    this.generation++;
    this.loading.clear();
    if (keys.includes(CacheKeys.all)) {
      this.lru.clear();
      return;
    }
    const prefixes = keys.filter((key) => key.endsWith(':'));
    for (const key of keys) if (!key.endsWith(':')) this.lru.delete(key);
    if (prefixes.length) {
      for (const key of [...this.lru.keys()]) if (prefixes.some((prefix) => key.startsWith(prefix))) this.lru.delete(key);
    }
  }

  private clearLocal(): void {
    this.generation++;
    this.loading.clear();
    this.lru.clear();
  }
}

/** The size of an answer in memory: its bytes, their compressed forms, and the object around them. */
export const answerSize = (answer: JsonAnswer | null): number => (answer ? answer.body.length + (answer.br?.length ?? 0) + (answer.gzip?.length ?? 0) + 200 : 64);
