import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { MembershipPlan } from './membership.entity.js';

export enum GiftMembershipStatus {
  UNREDEEMED = 'unredeemed',
  REDEEMED = 'redeemed',
  VOIDED = 'voided',
}

/**
 * A membership bought as a present: one period of a plan, for the recipient its order named. Its code
 * is never kept (its SHA-256 and last four characters are); redeeming it makes a membership that does
 * not renew. Voided when its order is refunded before it was redeemed.
 */
@Entity({ tableName: 'gift_membership' })
export class GiftMembership {
  [OptionalProps]?: 'status' | 'message' | 'redeemedBy' | 'redeemedAt' | 'createdAt';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'character', length: 64, hidden: true })
  codeDigest!: string;

  @Property({ type: 'character', length: 4 })
  last4!: string;

  @ManyToOne(() => MembershipPlan, { eager: true })
  plan!: MembershipPlan;

  @Property({ type: 'uuid' })
  orderId!: string;

  @Property({ type: 'integer' })
  orderItemId!: number;

  @Property({ type: 'string', length: 254 })
  recipientEmail!: string;

  @Property({ type: 'string', length: 100 })
  recipientName!: string;

  @Property({ type: 'string', length: 100 })
  senderName!: string;

  @Property({ type: 'text', nullable: true })
  message: string | null = null;

  @Enum({ items: () => GiftMembershipStatus, default: GiftMembershipStatus.UNREDEEMED })
  status: GiftMembershipStatus = GiftMembershipStatus.UNREDEEMED;

  @Property({ type: 'integer', nullable: true })
  redeemedBy: number | null = null;

  @Property({ type: 'datetime', nullable: true })
  redeemedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
