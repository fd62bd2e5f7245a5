import { CacheKeys, Changes, type ReadCache } from '../../core/read-cache.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { StorefrontGate } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { audited } from '../audit/index.js';
import { AppError, badInput } from '../../core/errors.js';
import { isStaffViewer } from '../../core/viewer.js';
import { Setting } from './setting.entity.js';

export interface SiteSettings {
  underConstructionMode: boolean;
  /** Whether the caller is a signed-in admin. */
  isAdmin: boolean;
}

const UNDER_CONSTRUCTION = 'underConstructionMode';
/** How long a shopper is told to wait before trying again while the site is under construction. */
export const UNDER_CONSTRUCTION_RETRY_AFTER = 3600;

export class SettingsService implements StorefrontGate {
  constructor(private readonly cache: ReadCache) {}

  /**
   * The switch is read from the database (one primary-key row) at most once per request, and kept in
   * the read cache, which every process drops before a change of the switch is answered.
   */
  private readonly perRequest = new WeakMap<EntityManager, Promise<boolean>>();

  async get(ctx: RequestContext): Promise<SiteSettings> {
    const [underConstructionMode, isAdmin] = await Promise.all([this.underConstruction(ctx), ctx.isAdmin()]);
    return { underConstructionMode, isAdmin };
  }

  async update(ctx: RequestContext, input: { underConstructionMode?: unknown }): Promise<SiteSettings> {
    const value = parseBooleanSetting(input.underConstructionMode, UNDER_CONSTRUCTION);
    await audited(
      ctx,
      async (tx) => {
        await tx.em.upsert(Setting, { key: UNDER_CONSTRUCTION, value: String(value), updatedAt: new Date() });
      },
      () => ({ entity: 'settings', id: UNDER_CONSTRUCTION, action: 'updated', summary: value ? 'Turned under-construction mode on' : 'Turned under-construction mode off' }),
    );
    this.perRequest.set(ctx.em, Promise.resolve(value));
    // Every process sees the switch before this answer goes out (and drops GraphQL answers made before it).
    await this.cache.changed(Changes.settings());
    ctx.log.info({ underConstructionMode: value }, 'settings updated');
    return this.get(ctx);
  }

  isUnderConstruction(ctx: RequestContext): Promise<boolean> {
    const { em } = ctx;
    let value = this.perRequest.get(em);
    if (!value) {
      value = this.cache.read(CacheKeys.settings, () => em.findOne(Setting, { key: UNDER_CONSTRUCTION }).then((row) => row?.value === 'true'));
      this.perRequest.set(em, value);
      // A failed read is not remembered: the next call asks again.
      value.catch(() => this.perRequest.delete(em));
    }
    return value;
  }

  /** The switch; from the read cache without touching the request's EntityManager when it is there. */
  private underConstruction(ctx: RequestContext): Promise<boolean> | boolean {
    return this.cache.peek<boolean>(CacheKeys.settings) ?? this.isUnderConstruction(ctx);
  }

  async assertStorefrontOpen(ctx: RequestContext): Promise<void> {
    if (!(await this.underConstruction(ctx))) return;
    // The shop's own people see it while it is closed (staff need its orders' pages in the console).
    if (isStaffViewer(await ctx.viewer())) return;
    throw new AppError('UNDER_CONSTRUCTION', 'The shop is under construction. Please come back soon.', {
      retryAfter: UNDER_CONSTRUCTION_RETRY_AFTER,
    });
  }
}

/** The REST contract sends the strings "true"/"false"; GraphQL sends booleans. Both are accepted. */
function parseBooleanSetting(value: unknown, field: string): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badInput(`${field} must be "true" or "false".`, field);
}
