import { LRUCache } from 'lru-cache';
import { CachedAnswer } from './cached-answer.js';
import { CacheKeys } from './cache-keys.js';

export { COMPRESS_MIN_BYTES, CachedAnswer, jsonAnswer, type Encoding, type StoredAnswer, type StoredForms } from './cached-answer.js';
export { CacheKeys, Changes, THEMES } from './cache-keys.js';

/** The longest key the cache takes; a longer one is not cached (its answer is computed every time). */
export const MAX_KEY_LENGTH = 512;
/** How long any entry lives at most, even if no change announced: a bound on staleness should a change ever be missed. */
export const DEFAULT_TTL_MS = 5 * 60_000;

export interface ReadCacheOptions {
  /** The memory bound of the cache: its values, their keys and its bookkeeping, in bytes. */
  maxBytes: number;
  /** The time limit of an entry (default DEFAULT_TTL_MS). */
  ttlMs?: number;
  /** The clock the time limits are measured by, in milliseconds (default: the process's monotonic clock). */
  now?: () => number;
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
 * A copy of cached answers kept outside this process's memory (the stored product pages): told of
 * a change after its commit and before any process drops it from memory, so that no process, having
 * dropped it, loads the old copy back.
 */
export type ChangeKeeper = (keys: string[]) => Promise<void>;

/** What an entry other than an answer (a flag, a null for "not found") is counted as. */
const SMALL_VALUE_SIZE = 64;
/** The cache's own bookkeeping per entry, besides the key and the value (see ANSWER_OVERHEAD). */
const ENTRY_OVERHEAD = 200;

const namespaceOf = (key: string): string => {
  const colon = key.indexOf(':');
  return colon < 0 ? key : key.slice(0, colon + 1);
};

/** The memory a value takes as the cache counts it. */
export const sizeOf = (value: unknown): number => (value instanceof CachedAnswer ? value.size : SMALL_VALUE_SIZE);

export interface ReadOptions<T = unknown> {
  /** A shorter time limit for this entry (an answer may also carry its own, see CachedAnswer.ttlMs). */
  ttlMs?: number;
  /** Whether a loaded value is kept (default: every value, a "not found" too). */
  keep?: (value: T) => boolean;
}

/**
 * The process's cache of storefront reads, in front of the database, bounded in bytes (LRU), keys and
 * bookkeeping counted. REST, GraphQL and the server-drawn pages read through it alike. It is only
 * used while the change feed is listening: a process that could miss another's invalidation reads
 * from the database instead, and starts empty again when the feed comes back. Every entry also has a
 * time limit, a last bound on staleness.
 *
 * Keys name entities (`product:12`, `category:5:all`, `tree`, `settings`, `page:product:12:dark`); a
 * key ending in ':' names every key below it, and '*' everything. Keys are indexed by namespace, so
 * that dropping a prefix looks only at the keys of its namespace.
 */
export class ReadCache {
  private readonly lru: LRUCache<string, Entry>;
  private readonly namespaces = new Map<string, Set<string>>();
  /** Loads in flight, shared by concurrent callers of one key. */
  private readonly loading = new Map<string, Promise<unknown>>();
  /** Bumped by every invalidation: a load that began before it must not store its (possibly old) answer. */
  private generation = 0;
  private enabled = false;
  private publisher: ChangePublisher | null = null;
  private readonly keepers: ChangeKeeper[] = [];
  private readonly ttlMs: number;
  /** Lookups answered from memory, and answers loaded (and stored) because they were not there: for /metrics. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(options: ReadCacheOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.lru = new LRUCache<string, Entry>({
      maxSize: options.maxBytes,
      sizeCalculation: (entry, key) => Math.max(1, entry.size + key.length + ENTRY_OVERHEAD),
      ttl: this.ttlMs,
      // A clock of one's own is read at every look (lru-cache otherwise keeps a reading for a millisecond of real time).
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
      dispose: (entry, key, reason) => {
        // An entry replaced by a newer one of the same key keeps its place in the index.
        if (reason !== 'set') this.unindex(key);
        if (entry.value instanceof CachedAnswer && reason !== 'set') entry.value.onResize = null;
      },
    });
  }

  /** Whether reads are served from memory (the change feed is up). */
  get active(): boolean {
    return this.enabled;
  }

  get size(): number {
    return this.lru.size;
  }

  /** The memory the entries take as counted (values, keys, bookkeeping). */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get maxBytes(): number {
    return this.lru.maxSize;
  }

  /** Called by the change feed: on when it listens (starting empty), off when it lost its connection. */
  setActive(active: boolean): void {
    this.clearLocal();
    this.enabled = active;
  }

  connect(publisher: ChangePublisher): void {
    this.publisher = publisher;
  }

  /** Tells `keeper` of every change this process writes, before memory anywhere drops it (see ChangeKeeper). */
  keepAlso(keeper: ChangeKeeper): void {
    this.keepers.push(keeper);
  }

  /** The cached value of `key`, or what `load` gives (stored unless a write came in meanwhile). */
  async read<T>(key: string, load: () => Promise<T>, options: ReadOptions<T> = {}): Promise<T> {
    if (!this.enabled || key.length > MAX_KEY_LENGTH) return load();
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
        if (!options.keep || options.keep(value)) this.store(key, value, generation, options);
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

  /** The cached value of `key`, if any (for answers stored by the gateway, e.g. GraphQL and pages). */
  peek<T>(key: string): T | undefined {
    if (!this.enabled) return undefined;
    return this.lru.get(key)?.value as T | undefined;
  }

  /** A stored answer about to be served as it is (counted as a hit, as `read` counts its own). */
  answer<T>(key: string): T | undefined {
    const value = this.peek<T>(key);
    if (value !== undefined && value !== null) this.stats.hits++;
    return value;
  }

  /** The current generation, to hand back to `store` once an answer made outside `read` is ready. */
  mark(): number {
    return this.generation;
  }

  /** Stores `value` under `key` unless the cache was invalidated since `since` (see `mark`). */
  store(key: string, value: unknown, since: number, options: Pick<ReadOptions, 'ttlMs'> = {}): void {
    this.stats.misses++;
    if (!this.enabled || since !== this.generation || key.length > MAX_KEY_LENGTH) return;
    const ttl = options.ttlMs ?? (value instanceof CachedAnswer ? value.ttlMs : undefined);
    this.lru.set(key, { value, size: sizeOf(value) }, ttl !== undefined ? { ttl: Math.max(1, Math.min(ttl, this.ttlMs)) } : undefined);
    if (!this.lru.has(key)) return; // larger than the whole cache
    this.index(key);
    if (value instanceof CachedAnswer) {
      // A compressed form made later for a caller is counted then.
      value.onResize = () => {
        if (this.lru.peek(key)?.value === value) this.lru.set(key, { value, size: value.size }, { noUpdateTTL: true });
      };
    }
  }

  /**
   * After a write has committed: drops the keys here and in every other process, and resolves once
   * they are gone everywhere (bounded), so that the next read from any process sees the write.
   */
  async changed(keys: string[]): Promise<void> {
    for (const keeper of this.keepers) await keeper(keys);
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
    for (const key of keys) {
      if (!key.endsWith(':')) {
        this.lru.delete(key);
        continue;
      }
      const members = this.namespaces.get(namespaceOf(key));
      if (!members) continue;
      const whole = namespaceOf(key) === key;
      for (const member of [...members]) if (whole || member.startsWith(key)) this.lru.delete(member);
    }
  }

  private index(key: string): void {
    const namespace = namespaceOf(key);
    let members = this.namespaces.get(namespace);
    if (!members) this.namespaces.set(namespace, (members = new Set()));
    members.add(key);
  }

  private unindex(key: string): void {
    const namespace = namespaceOf(key);
    const members = this.namespaces.get(namespace);
    if (!members) return;
    members.delete(key);
    if (!members.size) this.namespaces.delete(namespace);
  }

  private clearLocal(): void {
    this.generation++;
    this.loading.clear();
    this.lru.clear();
  }
}
