import { CacheKeys, Changes, type ReadCache } from '../../core/read-cache.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { StorefrontGate } from '../../core/access.js';
import { withEm, type RequestContext } from '../../core/context.js';
import { parseInput } from '../../core/input.js';
import { shopSettingsPatchSchema } from '../../rules/schemas.js';
import { recordAudit } from '../audit/index.js';
import { checkedImage, existingImage } from '../media/index.js';
import { AppError, badInput } from '../../core/errors.js';
import { isStaffViewer } from '../../core/viewer.js';
import { Setting } from './setting.entity.js';
import { announcementOf, identityOf, publicShopOf, settingsFromRows, ShopKeys, SHOP_KEY_PREFIX, type Announcement, type PublicShop, type ShopSettings } from './shop-settings.js';
import { applyPatch, describeShopChange, logoOf, SHOP_FIELDS, writeChanges } from './shop-settings-writes.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  closed: { id: 'error.shop.underConstruction', defaultMessage: 'The shop is under construction. Please come back soon.' },
});

/** The settings as the `settings` query and `GET /api/settings` answer them. */
export interface SiteSettings extends ShopSettings {
  underConstructionMode: boolean;
  /** Whether the caller is a signed-in admin. */
  isAdmin: boolean;
  /** The bar shoppers see, or null when it is off or empty. */
  announcement: Announcement | null;
}

const UNDER_CONSTRUCTION = 'underConstructionMode';
/** How long a shopper is told to wait before trying again while the site is under construction. */
export const UNDER_CONSTRUCTION_RETRY_AFTER = 3600;

export class SettingsService implements StorefrontGate {
  constructor(
    private readonly cache: ReadCache,
    /** The banner of a sale running now, if any (the scheduled sales module's; it drops the shop's settings when a sale starts or ends). */
    private readonly saleBanner: (em: EntityManager) => Promise<string | null> = async () => null,
  ) {}

  /**
   * The switch and the shop's settings are each read from the database at most once per request
   * (the switch one primary-key row, the shop's settings one query and its logo's file), and kept in
   * the read cache, which every process drops before a change of either is answered.
   */
  private readonly perRequest = new WeakMap<EntityManager, Promise<boolean>>();
  private readonly shopPerRequest = new WeakMap<EntityManager, Promise<ShopSettings>>();

  async get(ctx: RequestContext): Promise<SiteSettings> {
    const [underConstructionMode, isAdmin, shop] = await Promise.all([this.underConstruction(ctx), ctx.isAdmin(), this.shop(ctx.em)]);
    return { ...shop, announcement: announcementOf(shop), underConstructionMode, isAdmin };
  }

  /** The shop's settings: from the read cache, else read once for this EntityManager (a request, a batch of e-mail). */
  shop(em: EntityManager): Promise<ShopSettings> {
    const cached = this.cache.peek<ShopSettings>(CacheKeys.shopSettings);
    if (cached) return Promise.resolve(cached);
    let value = this.shopPerRequest.get(em);
    if (!value) {
      value = this.cache.read(CacheKeys.shopSettings, () => this.load(em));
      this.shopPerRequest.set(em, value);
      value.catch(() => this.shopPerRequest.delete(em));
    }
    return value;
  }

  /** What every visitor's page shows of the shop (name, logo, announcement, a card's default hour and zone). */
  async publicShop(ctx: RequestContext): Promise<PublicShop> {
    return publicShopOf(await this.shop(ctx.em));
  }

  /** Who the shop's e-mail comes from (the mail queue asks once per batch). */
  async mailIdentity(em: EntityManager): Promise<ReturnType<typeof identityOf>> {
    return identityOf(await this.shop(em));
  }

  /**
   * Changes the switch and/or the shop's settings: every field is checked before anything is written
   * (400 on the first bad one, nothing changed), then all are written in one transaction with their
   * audit entries. The REST contract's original call names the switch alone: a call naming no shop
   * setting must name the switch.
   */
  async update(ctx: RequestContext, input: Record<string, unknown>): Promise<SiteSettings> {
    const given = (key: string) => input[key] !== undefined;
    const shopGiven = SHOP_FIELDS.some(given);
    const underConstruction = given(UNDER_CONSTRUCTION) || !shopGiven ? parseBooleanSetting(input[UNDER_CONSTRUCTION], UNDER_CONSTRUCTION) : null;
    const patch = parseInput(shopSettingsPatchSchema, Object.fromEntries(SHOP_FIELDS.filter(given).map((key) => [key, input[key]])));
    const logo = patch.logoId ? await checkedImage(ctx.em, patch.logoId, 'logoId') : undefined;
    let shopChanged = false;
    await ctx.em.transactional(async (em) => {
      const tx = withEm(ctx, em);
      if (underConstruction !== null) {
        await em.upsert(Setting, { key: UNDER_CONSTRUCTION, value: String(underConstruction), updatedAt: new Date() });
        await recordAudit(tx, { entity: 'settings', id: UNDER_CONSTRUCTION, action: 'updated', summary: underConstruction ? 'Turned under-construction mode on' : 'Turned under-construction mode off' });
      }
      if (!shopGiven) return;
      // Two owners saving at once take turns: each one's "before" is then what the other wrote, and the audit log reads true.
      await em.execute(`select pg_advisory_xact_lock(hashtext('setting:shop'))`);
      const before = await this.load(em);
      const after = applyPatch(before, patch, logo);
      shopChanged = await writeChanges(em, before, after);
      if (shopChanged) await recordAudit(tx, { entity: 'settings', id: 'shop', action: 'updated', summary: describeShopChange(before, after) });
    });
    if (underConstruction !== null) this.perRequest.set(ctx.em, Promise.resolve(underConstruction));
    this.shopPerRequest.delete(ctx.em);
    // Every process sees the change before this answer goes out (and drops the pages and answers made before it).
    await this.cache.changed(Changes.settings());
    ctx.log.info({ underConstructionMode: underConstruction ?? undefined, shopSettingsChanged: shopChanged }, 'settings updated');
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
    throw new AppError('UNDER_CONSTRUCTION', refusals.closed, {
      retryAfter: UNDER_CONSTRUCTION_RETRY_AFTER,
    });
  }

  /** The shop's rows in one query, and its logo's file when one is set. */
  private async load(em: EntityManager): Promise<ShopSettings> {
    const rows = await em.execute<{ key: string; value: string }[]>(`select "key", "value" from "setting" where "key" like ?`, [`${SHOP_KEY_PREFIX}%`]);
    const values = new Map(rows.map((row) => [row.key, row.value]));
    const logoId = Number(values.get(ShopKeys.logoId));
    const file = logoId > 0 && Number.isSafeInteger(logoId) ? await existingImage(em, logoId) : null;
    return { ...settingsFromRows(values, file ? logoOf(file) : null), saleBanner: await this.saleBanner(em) };
  }
}

/** The REST contract sends the strings "true"/"false"; GraphQL sends booleans. Both are accepted. */
function parseBooleanSetting(value: unknown, field: string): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badInput(`${field} must be "true" or "false".`, field);
}
