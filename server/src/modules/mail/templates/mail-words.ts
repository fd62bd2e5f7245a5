import { defineMessage, type MessageDescriptor } from '@formatjs/intl';
import { escapeHtml, SafeHtml } from '../../../core/html.js';
import { intlFor, priceText } from '../../../i18n/intl.js';
import { DEFAULT_LOCALE, type Locale } from '../../../rules/locales.js';

export type { Locale } from '../../../rules/locales.js';

/** What a message is filled with: names, addresses, dates and amounts already written out. */
export type MessageValues = Record<string, string | number | null | undefined>;

/** How a tag of a message is drawn: its text between the opening and the closing tag, as HTML (or as plain text). */
export type Tags = Record<string, (inner: string) => string>;

/**
 * The words of an e-mail or a page in one language (contract section 20): English is the
 * `defaultMessage` beside each id, German, French and Spanish the server's catalogues.
 */
export class Words {
  readonly intl;

  constructor(readonly locale: Locale = DEFAULT_LOCALE) {
    this.intl = intlFor(locale);
  }

  /** A message as plain text (a subject, the plain-text part); its tags keep their text (or are drawn by `tags`). */
  text(message: MessageDescriptor, values: MessageValues = {}, tags: Tags = {}): string {
    return this.format(message, values, { b: (inner) => inner, ...tags });
  }

  /**
   * A message as HTML: its values escaped, `<b>` strong, other tags drawn by `tags` (their inner HTML
   * given), and its own words as the catalogue writes them (they are the shop's, like the markup).
   */
  html(message: MessageDescriptor, values: MessageValues = {}, tags: Tags = {}): SafeHtml {
    const escaped = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? escapeHtml(value) : value]));
    return new SafeHtml(this.format(message, escaped, { b: (inner) => `<strong>${inner}</strong>`, ...tags }));
  }

  /** An amount in dollars: "$4.50" in English (as the shop always wrote it), the language's own way otherwise ("4,50 $"). */
  price(amount: string | number): string {
    return priceText(this.locale, amount);
  }

  /** Text in the language's quotation marks ("…", „…“, « … », «…»). */
  quoted(text: string): string {
    return this.text(QUOTED, { text });
  }

  private format(message: MessageDescriptor, values: MessageValues, tags: Tags): string {
    const chunks = (draw: (inner: string) => string) => (parts: unknown[]) => draw(parts.map(String).join(''));
    const all: Record<string, unknown> = { ...values };
    for (const [name, draw] of Object.entries(tags)) all[name] = chunks(draw);
    const out = this.intl.formatMessage(message, all as Record<string, string>) as unknown;
    return Array.isArray(out) ? out.map(String).join('') : String(out);
  }
}

const QUOTED = defineMessage({ id: 'mail.quoted', defaultMessage: '"{text}"' });

/** The words of a language, made once per language. */
const made = new Map<Locale, Words>();
export function wordsFor(locale: Locale | null | undefined): Words {
  const key = locale ?? DEFAULT_LOCALE;
  let words = made.get(key);
  if (!words) made.set(key, (words = new Words(key)));
  return words;
}

/** A queued e-mail's language, for its payload: nothing for English, so that an English payload stays what it always was. */
export const inLanguage = (locale: Locale | null | undefined): { locale?: Locale } => (locale && locale !== DEFAULT_LOCALE ? { locale } : {});
