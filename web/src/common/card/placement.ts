import type { MessageLocation } from '../../apollo/generated/graphql';

/** A card's message placement as a CSS class (`placement-top-left`), for every screen that draws a card. */
export function placementClass(location: MessageLocation | null | undefined): string {
  return `placement-${(location ?? 'MIDDLE_CENTER').toLowerCase().replace('_', '-')}`;
}
