/**
 * What the server writes in a shopper's, a recipient's or a signer's language (contract section
 * 20): the e-mails, the e-card page and the group card's signing pages. The English texts are in
 * the code beside their ids (`defaultMessage`, extracted into messages/en.json by `npm run
 * messages`); German, French and Spanish are the catalogues beside this file.
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { DEFAULT_LOCALE, INTL_LOCALES, LOCALES, type Locale } from '../rules/locales.js';
import de from './messages/de.json' with { type: 'json' };
import fr from './messages/fr.json' with { type: 'json' };
import es from './messages/es.json' with { type: 'json' };

export type { Locale } from '../rules/locales.js';

const catalogues: Record<Locale, Record<string, string>> = { en: {}, de, fr, es };
const cache = createIntlCache();

/**
 * One formatter per language, made once. A text missing from a catalogue falls back to English (the
 * catalogue test keeps every language complete).
 */
const intls = new Map<Locale, IntlShape<string>>(
  LOCALES.map((locale) => [
    locale,
    createIntl(
      {
        locale: INTL_LOCALES[locale],
        defaultLocale: INTL_LOCALES[DEFAULT_LOCALE],
        messages: catalogues[locale],
        onError: (error) => {
          if (error.code !== 'MISSING_TRANSLATION') throw error;
        },
      },
      cache,
    ),
  ]),
);

/** The formatter of a language (English for anything the shop does not speak). */
export const intlFor = (locale: Locale | null | undefined): IntlShape<string> => intls.get(locale ?? DEFAULT_LOCALE) ?? intls.get(DEFAULT_LOCALE)!;

const currencies = new Map<Locale, Intl.NumberFormat>();

/** An amount in dollars as `locale` writes it: "$4.50" in English (as the shop always wrote it), the language's own way otherwise ("4,50 $"). */
export function priceText(locale: Locale, amount: string | number): string {
  if (locale === DEFAULT_LOCALE) return `$${amount}`;
  let format = currencies.get(locale);
  if (!format) currencies.set(locale, (format = new Intl.NumberFormat(INTL_LOCALES[locale], { style: 'currency', currency: 'USD' })));
  return format.format(Number(amount));
}

/** An amount as each language writes it, for a value of a message said later (an error's, in its request's language). */
export const priceIn = (amount: string | number) => (locale: Locale): string => priceText(locale, amount);
