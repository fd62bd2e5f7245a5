import { afterEach, describe, expect, it } from 'vitest';
import { loadMessages, setPageLocale } from '../../web/src/i18n/page-intl';
import { discountLabel, formatPrice, formatWholePrice, giftCardName, paidWithGiftCard } from '../../web/src/storefront/common/price';
import { longDate, longDateTime } from '../../web/src/storefront/common/dates';
import { formatDate } from '../../web/src/blog/format-date';
import { membershipState, planPrice } from '../../web/src/storefront/membership/membership-format';
import { cardStateLabel } from '../../web/src/storefront/account/card-state';
import type { Locale } from '@rules';

/** Prices and dates as each language writes them (Intl, through the page's formatter); English exactly as before. */

const inLanguage = async (locale: Locale) => setPageLocale(locale, await loadMessages(locale));
afterEach(() => inLanguage('en'));

describe('prices', () => {
  it('read as before in English', async () => {
    await inLanguage('en');
    expect(formatPrice('12.5')).toBe('$12.50');
    expect(formatPrice(4)).toBe('$4.00');
    expect(formatPrice('0.00')).toBe('$0.00');
    expect(formatWholePrice(25)).toBe('$25');
    expect(planPrice({ price: '4.99', period: 'MONTH' })).toBe('$4.99 a month');
    expect(discountLabel({ discountCode: 'SPRING10', discount: '1.00' })).toBe('Discount (SPRING10)');
    expect(discountLabel({ discountAmount: '2.00' })).toBe('Discount');
    expect(discountLabel({ discountName: '3 cards, 15 % off', discount: '2.00' })).toBe('3 cards, 15 % off');
    expect(discountLabel({ discount: '0' })).toBeNull();
    expect(giftCardName('7KQX')).toBe('Gift card ····7KQX');
    expect(paidWithGiftCard({ giftCardAmount: '5.00', chargedAmount: '1.00' })?.label).toBe('Gift card');
  });

  it('are written as each language writes dollars', async () => {
    await inLanguage('de');
    expect(formatPrice('12.5')).toMatch(/^12,50\s\$$/u);
    expect(formatPrice(1234.5)).toMatch(/^1\.234,50\s\$$/u);
    expect(formatWholePrice(25)).toMatch(/^25\s\$$/u);
    expect(discountLabel({ discountCode: 'SPRING10', discount: '1.00' })).toBe('Rabatt (SPRING10)');
    expect(giftCardName('7KQX')).toBe('Geschenkgutschein ····7KQX');
    expect(planPrice({ price: '39', period: 'YEAR' })).toMatch(/^39,00\s\$ pro Jahr$/u);
    await inLanguage('fr');
    expect(formatPrice('12.5')).toMatch(/^12,50\s\$/u);
    expect(discountLabel({ discountAmount: '2.00' })).toBe('Remise');
    await inLanguage('es');
    expect(formatPrice('12.5')).toMatch(/^12,50\s/u);
  });
});

describe('dates', () => {
  const iso = '2026-11-22T09:30:00.000Z';
  it('read as before in English', async () => {
    await inLanguage('en');
    expect(formatDate(iso, { stable: true })).toBe('22 November 2026');
    expect(longDate(iso)).toBe(new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long' }));
    expect(longDateTime(iso)).toBe(new Date(iso).toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short' }));
  });

  it("are written in the page's language", async () => {
    await inLanguage('de');
    expect(formatDate(iso, { stable: true })).toBe('22. November 2026');
    expect(longDate(iso)).toMatch(/^\d+\. November 2026$/);
    await inLanguage('fr');
    expect(formatDate(iso, { stable: true })).toBe('22 novembre 2026');
    expect(cardStateLabel({ kind: 'opened', at: iso })).toMatch(/^Ouverte le 22 novembre 2026/);
    await inLanguage('es');
    expect(formatDate(iso, { stable: true })).toBe('22 de noviembre de 2026');
    expect(membershipState({ status: 'ACTIVE', currentPeriodEnd: iso, cancelAtPeriodEnd: true }).line).toBe('Cancelada: finaliza el 22 de noviembre de 2026');
  });
});
