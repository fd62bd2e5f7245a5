import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
type Parse = (message: string) => unknown[];
/** The ICU parser react-intl runs (the one beside it), and its build without the parser. */
const reactIntlParser = path.dirname(require.resolve('@formatjs/icu-messageformat-parser', { paths: [path.dirname(require.resolve('react-intl'))] }));
const { parse } = require(path.join(reactIntlParser, 'index.js')) as { parse: Parse };

/** `defaultMessage: 'text'` or `"text"` in code, `defaultMessage="text"` in JSX. */
const IN_CODE = /\bdefaultMessage:\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/g;
const IN_JSX = /\bdefaultMessage="([^"&\\]*)"/g;

/** A message as react-intl's formatter reads it: the parser's elements (as formatjs's Babel plugin writes them with `ast: true`). */
export const messageAst = (message: string) => JSON.stringify(parse(message));

/**
 * The shop's texts already parsed: a page does not ship the ICU message parser (some 55 kB of
 * script, a quarter of a page's own code) nor parse each text on a phone before drawing it. In the
 * built client every English text written in the code (`defaultMessage`) becomes the parser's
 * elements, and so does every text of the other languages' catalogues (catalogue-parts.ts asks
 * messageAst); react-intl formats elements as it formats the text they came from, and the parser's
 * module is replaced by its build without the parser (`aliasNoParser`). The server's renderer and
 * the development server keep texts as they are written. A text left as a string would fail to
 * format without the parser: the build stops on a `defaultMessage` it cannot read. An empty text is
 * left as it is: no message is empty, and a form's field named so (a card's default message) starts so.
 */
export function precompiledMessages({ src }: { src: string }): Plugin {
  return {
    name: 'precompiled-messages',
    apply: 'build',
    enforce: 'pre',
    transform: {
      filter: { id: /\.(ts|tsx)$/, code: 'defaultMessage' },
      handler(code, id) {
        if (!id.startsWith(src)) return null;
        let changed = false;
        const out = code
          .replace(IN_CODE, (all, literal: string) => {
            // An empty text is no message: a form's field of the same name (a card's default message) starting empty.
            if (literal.length === 2) return all;
            changed = true;
            // A string literal of our own code, as written: JavaScript reads it.
            return `defaultMessage: ${messageAst(new Function(`return ${literal};`)() as string)}`;
          })
          .replace(IN_JSX, (_all, text: string) => {
            changed = true;
            return `defaultMessage={${messageAst(text)}}`;
          });
        const left = /\bdefaultMessage(?:=|:\s*)(?!''|"")['"`]|\bdefaultMessage: \[.*\]\s*\+/.exec(out);
        if (left) this.error(`${id}: a defaultMessage the build cannot parse ahead (${out.slice(left.index, left.index + 60)}): write it as a plain string literal`);
        return changed ? { code: out, map: null } : null;
      },
    },
  };
}

/** The resolve alias that gives the built client the parser's types and helpers without the parser. */
export const aliasNoParser = { find: /^@formatjs\/icu-messageformat-parser$/, replacement: path.join(reactIntlParser, 'no-parser.js') };
