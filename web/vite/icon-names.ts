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
 * legacy SNAKE_CASE keys. The build checks that both tables are equal and keeps Blueprint's own
 * module, with a warning, should a new version of Blueprint make them differ.
 */
export function blueprintIconNames(): Plugin {
  let sameTable: boolean | null = null;
  const fastTable = (names: Record<string, string>) => {
    const table: Record<string, string> = {};
    for (const [pascal, name] of Object.entries(names)) table[pascal] = name;
    for (const name of Object.values(names)) table[name.replace(/-/g, '_').toUpperCase()] = name;
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
          sameTable = JSON.stringify(Object.entries(fastTable(BlueprintIcons_16))) === JSON.stringify(Object.entries(IconNames));
          if (!sameTable) this.warn('Blueprint icon names: the fast table differs from Blueprint\'s; its own module is kept.');
        }
        if (!sameTable || !code.includes('pascalCase(name)')) return null;
        return {
          code: [
            'import { BlueprintIcons_16 } from "./generated/16px/blueprint-icons-16";',
            `const table = ${fastTable.toString()};`,
            'export const IconNames = table(BlueprintIcons_16);',
            'export const IconNamesSet = new Set(Object.values(IconNames));',
          ].join('\n'),
          map: null,
        };
      },
    },
  };
}
