import { Field, GraphQLISODateTime, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { MAX_INVITATIONS, MAX_SIGNATURE_MESSAGE, MAX_SIGNATURES, signingPath } from '../../rules/index.js';
import type { OrderItem } from '../orders/index.js';
import { GroupCardSignature, type GroupCard } from './group-card.entity.js';
import { SigningStatus } from './group-card-status.js';

registerEnumType(SigningStatus, {
  name: 'GroupCardStatus',
  description: 'open: taking signatures; full: has all 100 (signers may still change theirs); closed: past its deadline or delivered; withdrawn: refunded.',
  valuesConfig: {
    OPEN: { description: 'Taking signatures.' },
    FULL: { description: 'Has all 100 signatures it can take; signers may still change or remove theirs.' },
    CLOSED: { description: 'Past its deadline, or the card went out.' },
    WITHDRAWN: { description: 'Its order (or this card) was refunded.' },
  },
});

@InputType({ description: 'Makes a card a group card: whoever has its signing link may sign it until `collectUntil`.' })
export class GroupCardInput {
  @Field(() => String, { description: 'ISO 8601 date and time, in the future and no later than the delivery (e.g. 2026-12-20T18:00:00Z).' })
  collectUntil!: string;
}

@InputType({ description: 'A signature: a name and a plain-text message.' })
export class SignatureInput {
  @Field(() => String, { description: 'One line, up to 100 characters.' })
  name!: string;

  @Field(() => String, { description: `Plain text, up to ${MAX_SIGNATURE_MESSAGE} characters; line breaks are kept.` })
  message!: string;

  @Field(() => String, { nullable: true, description: 'The `invite` code of the invitation link the signer came by, if any.' })
  invite?: string | null;
}

@ObjectType('GroupCard', { description: 'A group card as its signers see it by its signing link.' })
export class GroupCardView {
  @Field(() => String, { description: "The card's name as sold." })
  productName!: string;

  @Field(() => String, { description: 'Whom the card is for.' })
  recipientName!: string;

  @Field(() => GraphQLISODateTime, { description: 'Signatures are collected until then.' })
  closesAt!: Date;

  @Field(() => SigningStatus, { description: 'Whether it takes signatures now.' })
  status!: SigningStatus;

  @Field(() => Int, { description: 'How many signatures it has.' })
  signatureCount!: number;

  @Field(() => Int, { description: 'How many signatures it can take (100).' })
  maxSignatures: number = MAX_SIGNATURES;

  @Field(() => String, { nullable: true, description: "The card's cover, at `/api/{coverPath}`." })
  coverPath!: string | null;

  @Field(() => [GroupCardSignature], { description: 'Every signature, in the order written.' })
  signatures!: GroupCardSignature[];
}

@ObjectType({ description: 'A signature just written, with the token that changes or removes it: kept by the browser that signed, never shown again.' })
export class SignedSignature {
  @Field(() => Int, { description: "The signature's id." })
  id!: number;

  @Field(() => String, { description: 'Send it to updateSignature and removeSignature (REST: the X-Edit-Token header).' })
  editToken!: string;

  @Field(() => GroupCardSignature, { description: 'The signature as the card shows it.' })
  signature!: GroupCardSignature;
}

@ObjectType({ description: "A group card as its purchaser (and admins) see it: the signing link, the deadline, every signature and the invited addresses." })
export class GroupCardDetails {
  constructor(card: GroupCard, item: OrderItem) {
    this.card = card;
    this.item = item;
    this.signingToken = card.signingToken;
    this.signingPath = signingPath(card.signingToken);
    this.collectUntil = card.collectUntil;
    this.latestCollectUntil = item.deliverAt ?? card.collectUntil;
  }

  readonly card: GroupCard;
  readonly item: OrderItem;

  @Field(() => String, { description: 'The signing link is `/sign/{signingToken}`.' })
  signingToken: string;

  @Field(() => String, { description: 'The signing page’s path on the shop: `/sign/{signingToken}`.' })
  signingPath: string;

  @Field(() => GraphQLISODateTime, { description: 'Signatures are collected until then.' })
  collectUntil: Date;

  @Field(() => GraphQLISODateTime, { description: 'The latest the deadline can move to: when the card is delivered.' })
  latestCollectUntil: Date;

  @Field(() => Int, { description: 'How many signatures it can take (100).' })
  maxSignatures: number = MAX_SIGNATURES;

  @Field(() => Int, { description: 'How many addresses may be invited by e-mail (50).' })
  maxInvitations: number = MAX_INVITATIONS;
}

@ObjectType({ description: 'What "Invite by e-mail" did.' })
export class GroupCardInvitationResult {
  @Field(() => [String], { description: 'The addresses invited now (each gets one e-mail).' })
  invited!: string[];

  @Field(() => [String], { description: 'Addresses that were already invited (no second e-mail).' })
  alreadyInvited!: string[];

  @Field(() => GroupCardDetails, { description: 'The group card as it is now.' })
  groupCard!: GroupCardDetails;
}
