import fs from 'node:fs';
import path from 'node:path';
import MagicString from 'magic-string';
import type { Plugin, Rolldown } from 'vite';
import { idsOfClosure, LAZY_IMPORT, readMessageUses } from './message-uses.ts';
import { messageAst } from './precompiled-messages.ts';

type Messages = Record<string, string>;

/** A part's module: its texts already parsed (precompiled-messages.ts), as the client formats them. */
const partModule = (messages: Messages | undefined) => `export default {${Object.entries(messages ?? {}).map(([id, text]) => `${JSON.stringify(id)}:${messageAst(text)}`).join(',')}};\n`;

/** A lazily loaded module's texts: its number in the app's table of parts, and its messages by language. */
interface Part {
  index: number;
  messages: Map<string, Messages>;
}

/**
 * A language's catalogue in parts, each loaded with the code that shows it: a first visit in German
 * fetches the German texts of the app shell and of the screen it opens, not the whole catalogue.
 *
 * The catalogue the app imports (`messages/de.json`, web/src/i18n/page-intl.ts) becomes, in the
 * built client, the shell's part (`src/app/start.de.js`): the texts its modules name, and a table of
 * the other parts. Every module the app loads lazily (a screen, a dialog) gets a part of its own
 * (`src/storefront/cart/CartPage.de.js`: the texts it and what it imports name, less the shell's),
 * and each `import('./CartPage')` becomes `withTexts(import('./CartPage'), 7)` (its part's number), which
 * fetches the code and the part of the page's language together and answers once both are here: a
 * screen never draws before its texts. English is in the code: an English page loads no part.
 *
 * Which texts a module shows is read from its source: the catalogue's ids it names. The development
 * server, the server's renderer and the tests load whole catalogues (this plugin only builds).
 */
export function catalogueParts({ src, shell, catalogues, languages, runtime, english }: {
  /** The app's sources (web/src/): only their modules name messages. */
  src: string;
  /** The app shell (app/start.tsx), loaded with the catalogue's first part. */
  shell: string;
  /** The folder of the catalogues, `<language>.json` each. */
  catalogues: string;
  /** The languages with a catalogue (English is in the code). */
  languages: readonly string[];
  /** The module that exports withTexts (i18n/page-intl.ts). */
  runtime: string;
  /** Modules only ever shown in English (the console's screens): loaded without texts. */
  english?: RegExp;
}): Plugin {
  const partId = (module: string, language: string) => `${module.replace(/\.[^./]+$/, '')}.${language}.js`;
  const catalogueOf = (id: string) => languages.find((language) => id === path.join(catalogues, `${language}.json`));
  let analysis: { shell: Map<string, Messages>; parts: Map<string, Part> } | null = null;
  /** Each part's chunk by its module id, as emitted in buildStart. */
  const chunks = new Map<string, string>();

  const analyse = async (context: Rolldown.PluginContext) => {
    const whole = new Map(languages.map((language) => [language, JSON.parse(fs.readFileSync(path.join(catalogues, `${language}.json`), 'utf8')) as Messages]));
    const known = new Set([...whole.values()].flatMap((messages) => Object.keys(messages)));
    const modules = await readMessageUses(context, [shell], src, (id) => known.has(id));
    const pick = (ids: Iterable<string>) => new Map(languages.map((language) => {
      const messages = whole.get(language)!;
      return [language, Object.fromEntries([...ids].sort().filter((id) => id in messages).map((id) => [id, messages[id]!]))];
    }));
    const shellIds = idsOfClosure(modules, shell);
    const parts = new Map<string, Part>();
    const lazy = [...new Set([...modules.values()].flatMap((uses) => uses.lazy.map((entry) => entry.id)))].sort();
    for (const module of lazy) {
      if (english?.test(module)) continue;
      const ids = [...idsOfClosure(modules, module)].filter((id) => !shellIds.has(id));
      if (ids.length === 0) continue;
      parts.set(module, { index: parts.size, messages: pick(ids) });
    }
    return { shell: pick(shellIds), parts };
  };

  return {
    name: 'catalogue-parts',
    apply: 'build',
    enforce: 'pre',
    async buildStart() {
      analysis = await analyse(this);
      chunks.clear();
      // Each part a chunk of its own, named in the shell's table by its address (an import() there
      // would have the bundler list what to preload with it in the English code as well).
      for (const module of analysis.parts.keys()) {
        for (const language of languages) chunks.set(partId(module, language), this.emitFile({ type: 'chunk', id: partId(module, language), preserveSignature: 'exports-only' }));
      }
    },
    resolveId(source, importer) {
      if (importer?.startsWith(src) && source.startsWith('.')) {
        const language = catalogueOf(path.resolve(path.dirname(importer), source));
        if (language) return partId(shell, language);
      }
      // A part, imported by the shell's part: made by load below.
      if (source.startsWith(src) && languages.some((language) => source.endsWith(`.${language}.js`)) && !fs.existsSync(source)) return source;
      return null;
    },
    async load(id) {
      const language = languages.find((l) => id.endsWith(`.${l}.js`));
      if (!language || !id.startsWith(src) || fs.existsSync(id)) return null;
      const { shell: shellTexts, parts } = analysis!;
      if (id === partId(shell, language)) {
        // In the order of the parts' numbers.
        const table = [...parts.keys()].map((module) => `  import.meta.ROLLUP_FILE_URL_${chunks.get(partId(module, language))},`);
        return `${partModule(shellTexts.get(language))}export const parts = [\n${table.join('\n')}\n];\n`;
      }
      const part = [...parts].find(([module]) => partId(module, language) === id)?.[1];
      if (!part) this.error(`${id}: no module of the app is loaded lazily from here`);
      return partModule(part.messages.get(language));
    },
    transform: {
      filter: { id: /\.tsx?$/, code: 'import(' },
      async handler(code, id) {
        if (!id.startsWith(src)) return null;
        const { parts } = analysis!;
        const s = new MagicString(code);
        for (const match of code.matchAll(LAZY_IMPORT)) {
          const target = (await this.resolve(match[2]!, id, { skipSelf: true }))?.id;
          const part = target && parts.get(target);
          if (!part) continue;
          s.overwrite(match.index, match.index + match[0].length, `__withTexts(${match[0]}, ${part.index})`);
        }
        if (!s.hasChanged()) return null;
        s.prepend(`import { withTexts as __withTexts } from ${JSON.stringify(runtime)};\n`);
        return { code: s.toString(), map: s.generateMap({ hires: true }) };
      },
    },
  };
}
