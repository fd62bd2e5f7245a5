import type { IconPaths } from '@blueprintjs/icons';

/**
 * One module per Blueprint icon and size, each fetched the first time its icon is drawn. This map
 * (the list of every icon's module) is itself a chunk of its own, loaded only when an icon outside
 * the bundled set is needed.
 */
const paths16 = import.meta.glob<IconPaths>('../../../node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/*.js', { import: 'default' });
const paths20 = import.meta.glob<IconPaths>('../../../node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/*.js', { import: 'default' });

export function iconModule(name: string, large: boolean): (() => Promise<IconPaths>) | undefined {
  const size = large ? 20 : 16;
  return (large ? paths20 : paths16)[`../../../node_modules/@blueprintjs/icons/lib/esm/generated/${size}px/paths/${name}.js`];
}
