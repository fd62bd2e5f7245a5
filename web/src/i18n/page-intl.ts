/**
 * The storefront's language (contract section 20): one ICU message catalogue per language, the
 * English texts written in the code beside their ids (`defaultMessage`, extracted into
 * messages/en.json by `npm run messages`), the others loaded as a chunk of their own, so that a page
 * carries one language, never four.
 *
 * A page speaks one language from its first paint to its last: a switch of language loads the page
 * at its other address. The page's `intl` is therefore set once before React draws (start.tsx, or
 * entry-server.tsx for each page the server draws) and read by components through react-intl's
 * provider, and by plain helpers (prices, dates) through pageIntl().
 */
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { DEFAULT_LOCALE, INTL_LOCALES, splitLocalePath, type Locale } from '@rules';

export type Messages = Record<string, string>;

const catalogues: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Messages }>> = {
  de: () => import('./messages/de.json'),
  fr: () => import('./messages/fr.json'),
  es: () => import('./messages/es.json'),
};

/** The catalogue of a language; English is the code's own texts. */
export async function loadMessages(locale: Locale): Promise<Messages> {
  return locale === 'en' ? {} : (await catalogues[locale]()).default;
}

const cache = createIntlCache();
const intls = new Map<Locale, IntlShape>();

/**
 * The formatter of a language. A text missing from a catalogue falls back to English: the catalogue
 * test keeps every language complete, and a shopper reads English rather than an id meanwhile.
 */
export function intlFor(locale: Locale, messages: Messages): IntlShape {
  let intl = intls.get(locale);
  if (!intl || intl.messages !== messages) {
    intl = createIntl(
      {
        locale: INTL_LOCALES[locale],
        defaultLocale: INTL_LOCALES[DEFAULT_LOCALE],
        messages,
        onError: (error) => {
          if (error.code !== 'MISSING_TRANSLATION') console.error(error);
        },
      },
      cache,
    );
    intls.set(locale, intl);
  }
  return intl;
}

let current: { locale: Locale; intl: IntlShape } = { locale: DEFAULT_LOCALE, intl: intlFor(DEFAULT_LOCALE, {}) };

/** Makes `locale` the page's language (its catalogue loaded by loadMessages). */
export function setPageLocale(locale: Locale, messages: Messages): IntlShape {
  current = { locale, intl: intlFor(locale, messages) };
  return current.intl;
}

/** The page's language: the one of its address. */
export const pageLocale = (): Locale => current.locale;

/** The page's formatter, for helpers outside React's tree (a component uses react-intl's hooks). */
export const pageIntl = (): IntlShape => current.intl;

/** The language of an address (`/de/shop` → de). */
export const localeOfPath = (pathname: string): Locale => splitLocalePath(pathname).locale;
