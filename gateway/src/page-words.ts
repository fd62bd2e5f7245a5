/**
 * What the server says in a storefront page's head (title, description, the names in its schema.org
 * data), in the page's language: search engines find each language by its own words.
 */
import { defineMessages, type MessageDescriptor } from '@formatjs/intl';
import { intlFor } from '../../server/src/i18n/intl.js';
import type { Locale } from '../../server/src/rules/locales.js';

const messages = defineMessages({
  homeTitle: { id: 'page.home.title', defaultMessage: '{shop} — e-greeting cards with songs and pictures' },
  siteDescription: { id: 'page.site.description', defaultMessage: '{shop}: e-greeting cards with songs, images and your own words. Beautiful greetings without the wait.' },
  shop: { id: 'page.shop.name', defaultMessage: 'Shop' },
  shopTitle: { id: 'page.shop.title', defaultMessage: 'Shop · {shop}' },
  shopDescription: { id: 'page.shop.description', defaultMessage: 'Browse the shop of {shop}: e-greeting cards with songs and pictures, music albums and image collections, by occasion.' },
  categoryTitle: { id: 'page.shop.categoryTitle', defaultMessage: '{category} · Shop · {shop}' },
  categoryDescription: { id: 'page.shop.categoryDescription', defaultMessage: '{category} at {shop}: e-greeting cards with songs and pictures, music albums and image collections.' },
  productDescription: { id: 'page.product.description', defaultMessage: '{product}, from {shop}.' },
  blogTitle: { id: 'page.blog.title', defaultMessage: 'Blog · {shop}' },
  blogName: { id: 'page.blog.name', defaultMessage: '{shop} — Blog' },
  blogDescription: { id: 'page.blog.description', defaultMessage: 'Stories, ideas and news from {shop}.' },
  notFoundTitle: { id: 'page.notFound.title', defaultMessage: 'Not found · {shop}' },
});

export type PageWord = keyof typeof messages;

/** A text of a page's head in `locale`, its values filled in. */
export const pageWords = (locale: Locale) => (word: PageWord, values: Record<string, string> = {}): string => intlFor(locale).formatMessage(messages[word] as MessageDescriptor, values);
