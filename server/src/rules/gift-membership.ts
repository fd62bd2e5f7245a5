/** Memberships given as presents: what makes a product one. */

/** The product type whose products give a membership plan's period to someone (made by a migration; found by its name). */
export const GIFT_MEMBERSHIP_TYPE_NAME = 'Gift Membership';

/** Whether a product type is the gift membership type (its name, in any case). */
export const isGiftMembershipType = (name: string | null | undefined): boolean => (name ?? '').trim().toLowerCase() === GIFT_MEMBERSHIP_TYPE_NAME.toLowerCase();
