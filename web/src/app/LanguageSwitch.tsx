import { useLocation } from 'react-router-dom';
import { useIntl } from 'react-intl';
import { LOCALES, LOCALE_NAMES, localizedPath, type Locale } from '@rules';
import { pageLocale } from '../i18n/page-intl';

/** How long the shop remembers a visitor's language: a year, as the theme. */
const LANG_COOKIE_MAX_AGE = 31_536_000;

/**
 * Remembers the language a visitor chose (the `lang` cookie): a visit to `/` then goes to its
 * address. Only a choice made here is kept: landing on a German page through a link chooses nothing.
 */
export function rememberLanguage(locale: Locale): void {
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `lang=${locale}; path=/; max-age=${LANG_COOKIE_MAX_AGE}; samesite=lax${secure}`;
}

/**
 * The footer's languages: the page the visitor is on, at its address in each language, each
 * language in its own name. A plain link and a full page load: the page's language is its
 * address's, and the router's base changes with it.
 */
export function LanguageSwitch() {
  const intl = useIntl();
  const { pathname, search } = useLocation();
  const current = pageLocale();
  return (
    <nav className="language-switch" aria-label={intl.formatMessage({ id: 'footer.language.label', defaultMessage: 'Language' })}>
      {LOCALES.map((locale) => (
        <a
          key={locale}
          href={localizedPath(locale, pathname + search)}
          hrefLang={locale}
          lang={locale}
          aria-current={locale === current ? 'true' : undefined}
          onClick={() => rememberLanguage(locale)}
        >
          {LOCALE_NAMES[locale]}
        </a>
      ))}
    </nav>
  );
}
