import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
const ICON_NAMES_MODULE = /@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]iconNames\.js$/;

/**
 * Blueprint's table of icon names without its start-up cost. `@blueprintjs/icons` builds the table
 * when it is first evaluated, running change-case's pascalCase and snakeCase over every icon's
 * name (~700 names, regular expressions each): some 45 ms of a phone's main thread on every page
 * load, before the page can answer a tap. Here the module builds the same table from the names'
 * generated enum, whose keys are already the PascalCase names, with one string replacement for the
 * legacy SNAKE_CASE keys. Nor does it import the generated enum (an object of every icon's two
 * names, built by a function of 700 assignments: 30 kB of every page's script and some 50 ms of a
 * phone's main thread): the names come as one string, and each name's PascalCase key is made from
 * it. The build checks that both tables are equal and keeps Blueprint's own module, with a warning,
 * should a new version of Blueprint make them differ.
 */
export function blueprintIconNames(): Plugin {
  let sameTable: boolean | null = null;
  let names: string[] = [];
  /** The table from the icons' names alone: `caret-down` → `CaretDown`, then the legacy `CARET_DOWN` keys. */
  const tableOf = (names: string[]) => {
    const table: Record<string, string> = {};
    for (const name of names) table[name.replace(/(?:^|-)(.)/g, (_match, first: string) => first.toUpperCase())] = name;
    for (const name of names) table[name.replace(/-/g, '_').toUpperCase()] = name;
    return table;
  };
  return {
    name: 'blueprint-icon-names',
    enforce: 'pre',
    transform: {
      filter: { id: ICON_NAMES_MODULE },
      handler(code, id) {
        if (!ICON_NAMES_MODULE.test(id)) return null;
        if (sameTable === null) {
          const { IconNames } = require('@blueprintjs/icons/lib/cjs/iconNames.js') as { IconNames: Record<string, string> };
          const { BlueprintIcons_16 } = require('@blueprintjs/icons/lib/cjs/generated/16px/blueprint-icons-16.js') as { BlueprintIcons_16: Record<string, string> };
          names = Object.values(BlueprintIcons_16);
          sameTable = !names.some((name) => /\s/.test(name)) && JSON.stringify(Object.entries(tableOf(names))) === JSON.stringify(Object.entries(IconNames));
          if (!sameTable) this.warn('Blueprint icon names: the fast table differs from Blueprint\'s; its own module is kept.');
        }
        if (!sameTable || !code.includes('pascalCase(name)')) return null;
        return {
          code: [
            `const table = ${tableOf.toString()};`,
            `export const IconNames = table(${JSON.stringify(names.join(' '))}.split(' '));`,
            'export const IconNamesSet = new Set(Object.values(IconNames));',
          ].join('\n'),
          map: null,
        };
      },
    },
  };
}
