import { pageIntl } from '../../i18n/page-intl';

/**
 * Dates and times as the storefront writes them, in the page's language (`Intl`, through the page's
 * formatter): "November 22, 2026" on an English page, "22. November 2026" on a German one.
 */
export const longDate = (iso: string) => pageIntl().formatDate(iso, { dateStyle: 'long' });
export const mediumDate = (iso: string) => pageIntl().formatDate(iso, { dateStyle: 'medium' });
export const longDateTime = (iso: string | Date) => pageIntl().formatDate(iso, { dateStyle: 'long', timeStyle: 'short' });
