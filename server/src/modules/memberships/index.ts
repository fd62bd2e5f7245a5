/** The memberships module's front door: what other modules may use of it. Everything else in this folder is its own. */
export type { MemberBenefits, MembershipService } from './membership.service.js';
export type { GiftMembershipService, PurchasedGiftMembership } from './gift-membership.service.js';
