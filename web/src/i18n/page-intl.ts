/**
 * The storefront's language (contract section 20): one ICU message catalogue per language, the
 * English texts written in the code beside their ids (`defaultMessage`, extracted into
 * messages/en.json by `npm run messages`), the others loaded as chunks of their own, so that a page
 * carries one language, never four. The built client loads a language's catalogue in parts, each
 * with the code that shows its texts (web/vite/catalogue-parts.ts): the app's with the app, a
 * screen's with the screen (withTexts).
 *
 * A page speaks one language from its first paint to its last: a switch of language loads the page
 * at its other address. The page's `intl` is therefore set once before React draws (start.tsx, or
 * entry-server.tsx for each page the server draws) and read by components through react-intl's
 * provider, and by plain helpers (prices, dates) through pageIntl().
 */
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { DEFAULT_LOCALE, INTL_LOCALES, splitLocalePath, type Locale } from '@rules';

export type Messages = Record<string, string>;

/** A catalogue as the app imports it: whole, or in a built client the app's part and the addresses of the others. */
interface Catalogue {
  default: Messages;
  parts?: string[];
}

const catalogues: Record<Exclude<Locale, 'en'>, () => Promise<Catalogue>> = {
  de: () => import('./messages/de.json'),
  fr: () => import('./messages/fr.json'),
  es: () => import('./messages/es.json'),
};
/** The addresses of the other parts of the page's catalogue, by number. */
let parts: string[] = [];

/** The catalogue of a language (in a built client, the app's part of it); English is the code's own texts. */
export async function loadMessages(locale: Locale): Promise<Messages> {
  if (locale === 'en') return {};
  const catalogue = await catalogues[locale]();
  // Only a built client's page loads a catalogue in parts, its language's alone.
  parts = catalogue.parts ?? parts;
  return catalogue.default;
}

/**
 * A lazily loaded module's code, once the page's language has its texts too: the build writes
 * `withTexts(import('./CartPage'), 7)` for `import('./CartPage')` (7: its part), and the code and the
 * texts are fetched together. Without a part (English, a whole catalogue) it is the code alone.
 */
export async function withTexts<T>(code: Promise<T>, part: number): Promise<T> {
  const address = parts[part];
  if (!address) return code;
  const [module, texts] = await Promise.all([code, import(/* @vite-ignore */ address) as Promise<{ default: Messages }>]);
  // The page's formatter reads its catalogue at each message: what is drawn next finds them there.
  Object.assign(current.intl.messages, texts.default);
  return module;
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
