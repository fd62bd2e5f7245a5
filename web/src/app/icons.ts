import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';
import caretDown16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down.js';
import cross16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/cross.js';
import manual16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/manual.js';
import moon16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/moon.js';
import flash16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/flash.js';
import logIn16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/log-in.js';
import search16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/search.js';
import shop16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/shop.js';
import shoppingCart16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/shopping-cart.js';
import user16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/user.js';
import manual20 from '@blueprintjs/icons/lib/esm/generated/20px/paths/manual.js';
import shop20 from '@blueprintjs/icons/lib/esm/generated/20px/paths/shop.js';
import media20 from '@blueprintjs/icons/lib/esm/generated/20px/paths/media.js';
import music20 from '@blueprintjs/icons/lib/esm/generated/20px/paths/music.js';
import time20 from '@blueprintjs/icons/lib/esm/generated/20px/paths/time.js';

/**
 * Blueprint icons one by one: each icon's paths are a module of their own, fetched the first time
 * the icon is drawn (instead of Blueprint's default of every icon's paths in two large chunks).
 * The few icons of the navigation bar and the first storefront screens come with the main bundle,
 * so they draw at once.
 */
const bundled16: Partial<Record<IconName, IconPaths>> = {
  'caret-down': caretDown16,
  cross: cross16,
  flash: flash16,
  'log-in': logIn16,
  manual: manual16,
  moon: moon16,
  search: search16,
  shop: shop16,
  'shopping-cart': shoppingCart16,
  user: user16,
};
const bundled20: Partial<Record<IconName, IconPaths>> = { manual: manual20, media: media20, music: music20, shop: shop20, time: time20 };

export async function loadIconPaths(name: IconName, size: IconSize): Promise<IconPaths> {
  const large = size >= IconSize.LARGE;
  const bundled = (large ? bundled20 : bundled16)[name];
  if (bundled) return bundled;
  const { iconModule } = await import('./icon-modules');
  const load = iconModule(name, large);
  if (!load) throw new Error(`Unknown icon "${name}"`);
  return load();
}

export function setUpIcons(): void {
  Icons.setLoaderOptions({ loader: loadIconPaths });
}

/**
 * The icons that come with the main bundle, made ready before the first render: drawn at once, and
 * the same on the server and in the browser (an icon not yet loaded renders as an empty span).
 */
export async function loadBundledIcons(): Promise<void> {
  await Promise.all([
    ...Object.keys(bundled16).map((name) => Icons.load(name as IconName, IconSize.STANDARD)),
    ...Object.keys(bundled20).map((name) => Icons.load(name as IconName, IconSize.LARGE)),
  ]);
}
