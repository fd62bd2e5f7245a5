/**
 * The message catalogues (contract section 20): English is what the code says, and German, French
 * and Spanish say the same things: every key in every language, none left over, every message valid
 * ICU with exactly the placeholders, plural and select forms, and tags of its English original.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES, extractCatalogue } from '../../scripts/message-sources.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const TRANSLATIONS = ['de', 'fr', 'es'] as const;
const read = (dir: string, locale: string) => JSON.parse(fs.readFileSync(path.join(root, dir, `${locale}.json`), 'utf8')) as Record<string, string>;

/** What a message needs from its caller and how it is shaped: its arguments by kind, plural/select options, tags. */
function signature(message: string): string[] {
  const found = new Set<string>();
  const visit = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      switch (element.type) {
        case TYPE.argument:
          found.add(`{${element.value}}`);
          break;
        case TYPE.number:
        case TYPE.date:
        case TYPE.time:
          found.add(`{${element.value}, ${TYPE[element.type]}}`);
          break;
        case TYPE.plural:
        case TYPE.select:
          found.add(`{${element.value}, ${TYPE[element.type]}}`);
          // The other forms a language needs (German "one"/"other", French "one"/"many"/"other") may differ; "other" is always there.
          if (!('other' in element.options)) found.add(`{${element.value}} without other`);
          if (element.type === TYPE.select) for (const key of Object.keys(element.options)) found.add(`{${element.value}} option ${key}`);
          for (const option of Object.values(element.options)) visit(option.value);
          break;
        case TYPE.tag:
          found.add(`<${element.value}>`);
          visit(element.children);
          break;
        default:
          break;
      }
    }
  };
  visit(parse(message));
  return [...found].sort();
}

describe.each(CATALOGUES)('the $name catalogue', (catalogue) => {
  const english = read(catalogue.dir, 'en');

  it('English is what the code says (npm run messages writes it)', async () => {
    expect(JSON.parse(await extractCatalogue(root, catalogue))).toEqual(english);
  });

  it.each(TRANSLATIONS)('%s has every key, and no other', (locale) => {
    const translated = read(catalogue.dir, locale);
    expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
  });

  it.each(TRANSLATIONS)('%s says each message with the placeholders, forms and tags of the English', (locale) => {
    const translated = read(catalogue.dir, locale);
    const differing = Object.keys(english)
      .filter((id) => id in translated)
      .filter((id) => JSON.stringify(signature(translated[id])) !== JSON.stringify(signature(english[id])))
      .map((id) => ({ id, english: english[id], translated: translated[id] }));
    expect(differing).toEqual([]);
  });

  it.each(TRANSLATIONS)('%s translates: no message is left empty', (locale) => {
    const translated = read(catalogue.dir, locale);
    expect(Object.entries(translated).filter(([, message]) => !message.trim())).toEqual([]);
  });
});

describe('a message signature', () => {
  it('tells a missing placeholder, a changed plural and a lost tag apart from a faithful translation', () => {
    const english = signature('{count, plural, one {# card} other {# cards}} for <b>{name}</b>');
    expect(signature('{count, plural, one {# Karte} other {# Karten}} für <b>{name}</b>')).toEqual(english);
    expect(signature('{count, plural, one {# Karte} other {# Karten}} für <b>Anna</b>')).not.toEqual(english);
    expect(signature('{count} Karten für <b>{name}</b>')).not.toEqual(english);
    expect(signature('{count, plural, one {# Karte} other {# Karten}} für {name}')).not.toEqual(english);
  });
});
