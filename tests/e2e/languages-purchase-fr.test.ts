import { describe, expect, it } from 'vitest';
import { browserSuite, hydrationErrors, newContext } from '../helpers/browser.js';
import { PHONE, lookAt } from '../helpers/language-screens.js';
import { cardMailTo, openCardAsRecipient, translateCard } from '../helpers/language-purchase.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * A card bought, sent and received in French on a phone (contract section 20), in a shop whose own
 * language is English: from /fr to the French confirmation, the French e-mail and the French card page.
 */
const suite = browserSuite();

/** The shop's content that has no French: its category's name. */
const UNTRANSLATED = ['Birthday'];

describe('buying a card in French on a phone', () => {
  it('goes from /fr to the French confirmation, the French e-mail and the French card page', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    const shop = await seedShop(app, admin);
    await translateCard(app, admin, shop.cardId, { locale: 'fr', name: 'Anniversaire en ballons', description: 'Des ballons et une chanson.', default_message: 'Joyeux anniversaire\u00a0!' });

    const context = await newContext(browser, app.url, { ...PHONE, locale: 'en-US', timezoneId: 'Europe/Paris' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);

    await page.goto('/fr');
    await page.getByText('De jolis vœux, sans attendre.').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    const featured = page.getByRole('link', { name: /Anniversaire en ballons/ }).first();
    await featured.waitFor();
    await page.waitForLoadState('networkidle');
    await lookAt(page, 'fr', 'purchase-fr-1-home', UNTRANSLATED);

    // The card, from the home page's featured cards.
    await featured.click();
    await page.waitForURL(`**/fr/product/${shop.cardId}`);
    await page.getByRole('heading', { level: 1, name: 'Anniversaire en ballons' }).waitFor();
    expect(await page.locator('.product-type').textContent()).toBe('Carte de vœux électronique');
    await expect.poll(() => page.getByLabel('Votre message').inputValue()).toBe('Joyeux anniversaire\u00a0!');
    await page.getByLabel('Nom du destinataire').fill('Grete');
    await page.getByLabel('E-mail du destinataire').fill('grete@example.com');
    await page.getByLabel('Votre nom').fill('Ada');
    await page.getByRole('button', { name: 'Ajouter au panier' }).click();
    const added = page.getByRole('status').filter({ hasText: 'est dans votre panier' });
    await expect.poll(() => added.textContent()).toBe('«\u00a0Anniversaire en ballons\u00a0» pour Grete est dans votre panier. Voir le panier');
    await lookAt(page, 'fr', 'purchase-fr-2-product-added');

    await added.getByRole('link', { name: 'Voir le panier' }).click();
    await page.waitForURL('**/fr/cart');
    await page.getByRole('heading', { level: 1, name: 'Votre panier' }).waitFor();
    await page.getByText('Anniversaire en ballons').first().waitFor();
    await expect.poll(() => page.getByTestId('cart-total').textContent()).toMatch(/^4,50\s\$/u);
    await lookAt(page, 'fr', 'purchase-fr-3-cart');

    await page.getByRole('button', { name: 'Passer la commande' }).click();
    await page.waitForURL('**/fr/payments');
    await page.getByRole('heading', { level: 1, name: 'Paiement' }).waitFor();
    await page.getByText('Cette boutique accepte des paiements de test', { exact: false }).waitFor();
    await page.getByLabel('Votre e-mail', { exact: true }).fill('ada@example.com');
    await page.getByLabel('Numéro de carte', { exact: true }).fill('4242 4242 4242 4242');
    await page.getByLabel('Date d’expiration', { exact: true }).fill('1230');
    await page.getByLabel('Cryptogramme', { exact: true }).fill('123');
    await lookAt(page, 'fr', 'purchase-fr-4-checkout');
    await page.getByRole('button', { name: /^Payer 4,50\s\$/u }).click();

    // The confirmation, its date written the French way.
    await page.waitForURL(/\/fr\/order-confirmation\//);
    await page.getByRole('heading', { level: 1, name: 'Merci\u00a0! Votre commande est confirmée.' }).waitFor();
    const placed = page.locator('.confirmation-facts dt', { hasText: 'Passée le' }).locator('xpath=following-sibling::dd[1]');
    expect(await placed.textContent()).toMatch(/^\d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4} à \d{2}:\d{2}$/);
    expect(await page.locator('.confirmation-items').textContent()).toContain('Anniversaire en ballons');
    await page.locator('a', { hasText: 'Voir l’e-carte' }).waitFor();
    await page.getByRole('region', { name: 'Gardez un œil sur vos cartes' }).waitFor();
    await lookAt(page, 'fr', 'purchase-fr-5-confirmation');
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();

    // The recipient's e-mail and the card's page, in French.
    await app.services.deliveries.runDue();
    const mail = await cardMailTo(app, 'grete@example.com');
    expect(mail.subject).toBe('Ada vous a envoyé une carte\u00a0: Anniversaire en ballons');
    expect(mail.body).toContain('Bonjour Grete,');
    expect(mail.body).toMatch(/<html [^>]*lang="fr"/);
    expect(mail.body).not.toContain('Open your card');

    const card = await openCardAsRecipient(
      browser,
      app.url,
      mail.cardPath,
      'fr',
      { heading: 'Grete, Ada vous a envoyé une carte', title: 'Une carte pour Grete de la part de Ada', open: 'Ouvrir la carte pour Grete', message: 'Joyeux anniversaire\u00a0!', thanks: 'Envoyer un remerciement' },
      { open: 'purchase-fr-6-ecard-open' },
    );
    await card.context().close();
  });
});
