import type { Plugin } from 'vite';

/**
 * Escapes every character beyond Latin-1 in the emitted JavaScript (`’` becomes `\u2019`). V8 keeps
 * the source of every module it loads as a string, and one such character anywhere (a typographic
 * apostrophe in a library's comment) makes it keep the whole source in two bytes per character: the
 * server renderer took twice the memory for two apostrophes. An escape means the same character in a
 * string, a template, a regular expression or an identifier, and is plain text in a comment.
 */
export function oneByteSource(): Plugin {
  return {
    name: 'one-byte-source',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk' && /[^\x00-\xff]/.test(output.code)) output.code = escapeBeyondLatin1(output.code);
      }
    },
  };
}

export function escapeBeyondLatin1(code: string): string {
  return code.replace(/[^\x00-\xff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
