import { useSyncExternalStore } from 'react';
import { DEFAULT_DELIVERY_HOUR, DEFAULT_SHOP_NAME, DEFAULT_SHOP_TIME_ZONE } from '@rules';

/** The shop as its owner set it and every visitor sees it: the header's name and logo, the announcement bar, a card's default hour. */
export interface ShopLook {
  name: string;
  logo: { filePath: string; width?: number | null; height?: number | null } | null;
  announcement: { text: string; link?: string | null } | null;
  defaultDeliveryHour: number;
  timeZone: string;
}

/** What the server sends (a page's initial state, the `settings` query): the same fields under their own names. */
export interface ShopLookInput {
  name?: string;
  shopName?: string;
  logo?: ShopLook['logo'];
  announcement?: ShopLook['announcement'];
  defaultDeliveryHour?: number;
  timeZone?: string;
}

export const DEFAULT_LOOK: ShopLook = { name: DEFAULT_SHOP_NAME, logo: null, announcement: null, defaultDeliveryHour: DEFAULT_DELIVERY_HOUR, timeZone: DEFAULT_SHOP_TIME_ZONE };

const lookOf = (input: ShopLookInput): ShopLook => ({
  name: input.shopName ?? input.name ?? DEFAULT_SHOP_NAME,
  logo: input.logo ? { filePath: input.logo.filePath, width: input.logo.width ?? null, height: input.logo.height ?? null } : null,
  announcement: input.announcement ? { text: input.announcement.text, link: input.announcement.link ?? null } : null,
  defaultDeliveryHour: input.defaultDeliveryHour ?? DEFAULT_DELIVERY_HOUR,
  timeZone: input.timeZone ?? DEFAULT_SHOP_TIME_ZONE,
});

const same = (a: ShopLook, b: ShopLook) => JSON.stringify(a) === JSON.stringify(b);

type Listener = () => void;

/**
 * The shop's look, the same for everyone (signed in or not): fed by the page's initial state, the
 * settings query and the Settings screen's save. A look equal to the one held keeps the same object,
 * so a page the server drew hydrates with nothing to draw again.
 */
export class ShopStore {
  private state: ShopLook = DEFAULT_LOOK;
  private pageState: ShopLook = DEFAULT_LOOK;
  private readonly listeners = new Set<Listener>();

  getState = (): ShopLook => this.state;

  /** What the page the server drew showed (see web/src/entry-server.tsx). */
  getPageState = (): ShopLook => this.pageState;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  setShop(input: ShopLookInput): void {
    const next = lookOf(input);
    if (same(next, this.state)) return;
    const before = this.state;
    this.state = next;
    retitle(before.name, next.name);
    for (const listener of this.listeners) listener();
  }

  /** The look a server-drawn page was drawn with: also the current one until the network says otherwise. */
  setPageShop(input: ShopLookInput): void {
    const page = lookOf(input);
    this.setShop(page);
    this.pageState = same(page, this.state) ? this.state : page;
  }
}

/** A page titled with the shop's old name (the app's own shell, a page left open while the owner renamed it) takes the new one. */
function retitle(before: string, after: string): void {
  if (typeof document === 'undefined' || before === after || !document.title.includes(before)) return;
  document.title = document.title.replace(before, after);
}

export const shopStore = new ShopStore();

export function useShop(): ShopLook {
  return useSyncExternalStore(shopStore.subscribe, shopStore.getState, shopStore.getPageState);
}
