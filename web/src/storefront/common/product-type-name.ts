import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import { englishText } from '../../i18n/english-text';

/**
 * The shop's own product types, by the name they are created with: a shopper reads them in the
 * page's language. A type the shop renamed, or added, is its content and shows as written.
 */
const builtIn = defineMessages({
  eGreetingCard: { id: 'productType.eGreetingCard', defaultMessage: 'E-Greeting Card' },
  musicAlbum: { id: 'productType.musicAlbum', defaultMessage: 'Music Album' },
  imageCollection: { id: 'productType.imageCollection', defaultMessage: 'Image Collection' },
  giftCard: { id: 'productType.giftCard', defaultMessage: 'Gift Card' },
  giftMembership: { id: 'productType.giftMembership', defaultMessage: 'Gift Membership' },
});
const byName = new Map<string, MessageDescriptor>(Object.values(builtIn).map((message) => [englishText(message), message]));

/** A product type's name as the page says it. */
export function productTypeName(intl: IntlShape, name: string): string {
  const message = byName.get(name);
  return message ? intl.formatMessage(message) : name;
}
