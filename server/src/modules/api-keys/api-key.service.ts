import type { EntityManager } from '@mikro-orm/postgresql';
import { API_SCOPES, type ApiScope } from '../../core/access.js';
import { withEm, type RequestContext } from '../../core/context.js';
import { badInput, notFound, unauthenticated } from '../../core/errors.js';
import { CacheKeys, type ReadCache } from '../../core/read-cache.js';
import { apiKeyViewer, type ApiKeyCaller, type Viewer } from '../../core/viewer.js';
import { audited, named, recordAudit } from '../audit/index.js';
import { isWellFormedKey, keyDigest, keyLast4, newApiKey } from './api-key-codes.js';
import { ApiKey } from './api-key.entity.js';
import type { CreatedApiKey } from './api-key.types.js';

const MAX_NAME = 100;
/** A key's last use is written at most this often by each process: a read signed with a key costs no write. */
export const LAST_USED_EVERY_MS = 60_000;
/** A bound on how long a process trusts a key it looked up, should a revocation's notice ever be missed. */
const KEY_CACHE_TTL_MS = 60_000;
/** Authorization headers remembered at most (a bound, were many keys in use at once). */
const MAX_REMEMBERED_HEADERS = 1000;

export interface ApiKeyOptions {
  /** Keys looked up, kept in the shop's read cache: a revocation drops them in every process before it answers. */
  cache: ReadCache;
  clock: () => Date;
}

/**
 * API keys (contract section 19): created and revoked by admins, and how a request signed with one
 * is recognised. A key is looked up by its digest through the read cache, whose change feed empties
 * every process's entries when a key is revoked (and which reads from the database while the feed is
 * down), so a revoked key is refused everywhere at once while a busy key costs no query.
 */
export class ApiKeyService {
  /** When this process last wrote each key's last use. */
  private readonly lastNoted = new Map<number, number>();
  /**
   * The read cache's entry each Authorization header signed with a known key names: a busy key's
   * requests are not parsed and hashed again (the entry itself says whether the key still works).
   */
  private readonly entries = new Map<string, string>();

  constructor(private readonly options: ApiKeyOptions) {}

  /** Every key, newest first, revoked ones included. */
  list(ctx: RequestContext): Promise<ApiKey[]> {
    return ctx.em.find(ApiKey, {}, { orderBy: { id: 'desc' } });
  }

  /** Creates a key; the answer carries the key itself, which nothing keeps. Audited. */
  async create(ctx: RequestContext, input: { name: unknown; scopes: unknown }): Promise<CreatedApiKey> {
    const name = cleanName(input.name);
    const scopes = cleanScopes(input.scopes);
    const creator = (await ctx.requireViewer()).user.username ?? null;
    const key = newApiKey();
    const apiKey = await audited(
      ctx,
      async (tx) => {
        const row = tx.em.create(ApiKey, { name, scopes, keyDigest: keyDigest(key), last4: keyLast4(key), createdBy: creator, createdAt: this.options.clock() });
        await tx.em.flush();
        return row;
      },
      (row) => ({ entity: 'api-key', id: row.id, action: 'created', summary: `API key ${named(row.name)} created (${row.scopes.join(', ')}), ending ${row.last4}` }),
    );
    return { apiKey, key };
  }

  /**
   * Revokes a key (NOT_FOUND for an unknown id; a revoked one stays as it is). Answers once every
   * process has dropped the key from its cache: from then on it is refused everywhere.
   */
  async revoke(ctx: RequestContext, id: number): Promise<ApiKey> {
    const { key, revoked } = await ctx.em.transactional(async (em) => {
      const row = await em.findOne(ApiKey, id);
      if (!row) throw notFound('API key');
      if (row.revokedAt) return { key: row, revoked: false };
      row.revokedAt = this.options.clock();
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'api-key', id: row.id, action: 'revoked', summary: `API key ${named(row.name)} revoked` });
      return { key: row, revoked: true };
    });
    if (revoked) await this.options.cache.changed([CacheKeys.apiKeys]);
    return key;
  }

  /** The caller a `Bearer ask_…` token stands for; UNAUTHENTICATED for an unknown or revoked key. */
  async authenticate(em: EntityManager, token: string): Promise<Viewer> {
    const key = isWellFormedKey(token) ? await this.lookup(em, keyDigest(token)) : null;
    if (!key) throw unauthenticated('This API key is not valid: it is unknown or was revoked.');
    await this.noteUse(em, key.id);
    return apiKeyViewer(key);
  }

  /**
   * The key an Authorization header names, when this process knows it already and has written its
   * last use within the minute: what the cached reads ahead of Express ask (no query, no write).
   * Undefined otherwise: the request then goes through Express, which looks the key up and notes its use.
   */
  knownKey(authorization: string): ApiKeyCaller | undefined {
    let entry = this.entries.get(authorization);
    if (entry === undefined) {
      const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
      if (!token || !isWellFormedKey(token)) return undefined;
      // Only headers that name a key this process looked up are remembered: what it is sent otherwise cannot fill the map.
      entry = CacheKeys.apiKey(keyDigest(token));
      if (this.options.cache.peek(entry) === undefined) return undefined;
      if (this.entries.size >= MAX_REMEMBERED_HEADERS) this.entries.clear();
      this.entries.set(authorization, entry);
    }
    const key = this.options.cache.peek<ApiKeyCaller | null>(entry);
    if (!key) return undefined;
    const noted = this.lastNoted.get(key.id);
    return noted !== undefined && this.options.clock().getTime() - noted < LAST_USED_EVERY_MS ? key : undefined;
  }

  /** The live key an Authorization header names (through the cache), or null: what a request is counted against. */
  async keyOf(em: () => EntityManager, authorization: string | undefined): Promise<ApiKeyCaller | null> {
    const token = authorization && /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
    if (!token || !isWellFormedKey(token)) return null;
    const digest = keyDigest(token);
    return this.options.cache.peek<ApiKeyCaller | null>(CacheKeys.apiKey(digest)) ?? this.lookup(em(), digest);
  }

  private lookup(em: EntityManager, digest: string): Promise<ApiKeyCaller | null> {
    return this.options.cache.read(
      CacheKeys.apiKey(digest),
      async () => {
        const [row] = await em.getConnection().execute<{ id: number; name: string; scopes: ApiScope[] }[]>(
          `select "id", "name", "scopes" from "api_key" where "key_digest" = ? and "revoked_at" is null`,
          [digest],
        );
        return row ? { id: row.id, name: row.name, scopes: row.scopes } : null;
      },
      // Unknown keys are not remembered: guessing cannot fill the cache.
      { keep: (key) => key !== null, ttlMs: KEY_CACHE_TTL_MS },
    );
  }

  /** Records a key's use at most once a minute per process: one small write, never one per request. */
  private async noteUse(em: EntityManager, id: number): Promise<void> {
    const now = this.options.clock();
    const last = this.lastNoted.get(id);
    if (last !== undefined && now.getTime() - last < LAST_USED_EVERY_MS) return;
    this.lastNoted.set(id, now.getTime());
    await em
      .getConnection()
      .execute(`update "api_key" set "last_used_at" = greatest(coalesce("last_used_at", ?), ?) where "id" = ?`, [now, now, id])
      .catch(() => this.lastNoted.delete(id));
  }
}

function cleanName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw badInput('Give the key a name.', 'name');
  if (name.length > MAX_NAME) throw badInput(`A name is at most ${MAX_NAME} characters.`, 'name');
  return name;
}

function cleanScopes(value: unknown): ApiScope[] {
  const known = API_SCOPES as readonly string[];
  if (!Array.isArray(value) || !value.length || value.some((scope) => typeof scope !== 'string' || !known.includes(scope))) {
    throw badInput(`scopes must list one or more of ${API_SCOPES.join(', ')}.`, 'scopes');
  }
  return API_SCOPES.filter((scope) => value.includes(scope));
}
