import { defineMessages, type IntlShape } from 'react-intl';
import { BUILT_IN_PRODUCT_TYPES, isGiftCardType, isGiftMembershipType } from '@rules';

const messages = defineMessages({
  1: { id: 'productType.card', defaultMessage: 'E-Greeting Card' },
  2: { id: 'productType.album', defaultMessage: 'Music Album' },
  3: { id: 'productType.images', defaultMessage: 'Image Collection' },
  giftCard: { id: 'productType.giftCard', defaultMessage: 'Gift Card' },
  giftMembership: { id: 'productType.giftMembership', defaultMessage: 'Gift Membership' },
});

/**
 * A product type's name in the page's language: the shop's own types (the three built in, the gift
 * card's and the gift membership's) as the catalogue says them while they keep the name they came
 * with; a type the admin added or renamed as the admin wrote it.
 */
export function productTypeName(intl: IntlShape, type: { id: number; name: string }): string {
  const builtIn = BUILT_IN_PRODUCT_TYPES.find((known) => known.id === type.id);
  if (builtIn) return builtIn.name === type.name ? intl.formatMessage(messages[builtIn.id]) : type.name;
  if (isGiftCardType(type.name)) return intl.formatMessage(messages.giftCard);
  if (isGiftMembershipType(type.name)) return intl.formatMessage(messages.giftMembership);
  return type.name;
}
