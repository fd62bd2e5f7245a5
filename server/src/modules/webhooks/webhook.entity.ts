import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { WebhookEventType } from '../../rules/webhooks.js';

/**
 * An address the shop POSTs its events to (contract section 19): the events it takes and the secret
 * every delivery is signed with. The secret is kept as it is (the shop signs with it) and shown once,
 * when the endpoint is created. An endpoint whose deliveries all failed for three days is turned off
 * (`disabledAt`, with the reason) until an admin turns it back on.
 */
@ObjectType({ description: 'A webhook endpoint (admins): where the shop POSTs the events it takes; never its secret, which is shown once when it is created.' })
@Entity({ tableName: 'webhook_endpoint' })
export class WebhookEndpoint {
  [OptionalProps]?: 'createdAt' | 'createdBy' | 'failingSince' | 'disabledAt' | 'disabledReason' | 'enabled';

  @Field(() => Int, { description: "The endpoint's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'The http(s) URL the events are POSTed to.' })
  @Property({ type: 'string', length: 2000 })
  url!: string;

  @Field(() => [String], { description: 'The events it takes: any of order.paid, order.refunded, order.delivered, card.opened, card.replied, product.created, product.updated, product.deleted, customer.created.' })
  @Property({ type: 'string[]', columnType: 'text[]' })
  events!: WebhookEventType[];

  /** `whsec_` and 32 random characters: the HMAC-SHA256 key of every delivery's signature. */
  @Property({ type: 'string', length: 64, hidden: true })
  secret!: string;

  @Field(() => String, { nullable: true, description: 'The username of the admin who created it (null once that account is gone).' })
  @Property({ type: 'string', length: 32, nullable: true })
  createdBy: string | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  /** The first failed attempt since its last success (null: its last attempt succeeded, or none failed). */
  @Property({ type: 'datetime', nullable: true })
  failingSince: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it was turned off (null: it receives events).' })
  @Property({ type: 'datetime', nullable: true })
  disabledAt: Date | null = null;

  @Field(() => String, { nullable: true, description: 'Why it was turned off.' })
  @Property({ type: 'text', nullable: true })
  disabledReason: string | null = null;

  @Field(() => Boolean, { description: 'Whether it receives events (false once turned off).' })
  get enabled(): boolean {
    return this.disabledAt === null;
  }
}

/** One change the shop tells its endpoints of, written in the transaction of the change (the outbox). */
@Entity({ tableName: 'webhook_event' })
export class WebhookEvent {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'string', length: 40 })
  type!: WebhookEventType;

  /** The event's public data (what the POST carries as `data`); not loaded with the event unless asked. */
  @Property({ type: 'json', lazy: true })
  data!: Record<string, unknown>;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}

export enum WebhookDeliveryStatus {
  /** Not answered with a 2xx yet: it is tried again at `nextAttemptAt`. */
  PENDING = 'pending',
  SUCCEEDED = 'succeeded',
  /** No 2xx in the three days after its event (or its endpoint was turned off); it can be redelivered. */
  FAILED = 'failed',
}

registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: 'Where a webhook delivery stands.',
  valuesConfig: {
    PENDING: { description: 'Not answered with a 2xx yet; tried again at its next attempt.' },
    SUCCEEDED: { description: 'The endpoint answered with a 2xx.' },
    FAILED: { description: 'No 2xx within three days of its event, or its endpoint was turned off.' },
  },
});

/** An event on its way to one endpoint: its attempts, the last answer and when it is tried next. */
@ObjectType({ description: 'One event sent to one webhook endpoint: its attempts and the last answer.' })
@Entity({ tableName: 'webhook_delivery' })
export class WebhookDelivery {
  [OptionalProps]?: 'status' | 'attempts' | 'createdAt' | 'nextAttemptAt' | 'lastStatusCode' | 'lastError' | 'lastAttemptAt' | 'claimToken' | 'eventId' | 'eventType';

  @Field(() => Int, { description: "The delivery's id (what is redelivered)." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => WebhookEvent, { deleteRule: 'cascade', fieldName: 'event_id' })
  event!: WebhookEvent;

  @ManyToOne(() => WebhookEndpoint, { deleteRule: 'cascade', fieldName: 'endpoint_id' })
  endpoint!: WebhookEndpoint;

  @Field(() => WebhookDeliveryStatus, { description: 'Pending, succeeded or failed.' })
  @Enum({ items: () => WebhookDeliveryStatus, type: 'string' })
  status: WebhookDeliveryStatus = WebhookDeliveryStatus.PENDING;

  @Field(() => Int, { description: 'How many times it was sent.' })
  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it is sent next (null once it succeeded or failed).' })
  @Property({ type: 'datetime', nullable: true })
  nextAttemptAt: Date | null = null;

  /** Three days after its event: a failed attempt after this is its last. */
  @Property({ type: 'datetime' })
  retryUntil!: Date;

  @Field(() => Int, { nullable: true, description: "The HTTP status of the endpoint's last answer (null: it did not answer)." })
  @Property({ type: 'smallint', nullable: true })
  lastStatusCode: number | null = null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed (no answer in time, refused address, the status it answered).' })
  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it was last sent (null: not yet).' })
  @Property({ type: 'datetime', nullable: true })
  lastAttemptAt: Date | null = null;

  /** The claim of the worker sending it now (its lease is `nextAttemptAt`). */
  @Property({ type: 'uuid', nullable: true })
  claimToken: string | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was queued (with its event).' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Field(() => String, { description: "The event's id: the `id` of the body and the ArtSong-Event-Id header, the same on every attempt." })
  get eventId(): string {
    return this.event.id;
  }

  @Field(() => String, { description: 'The event type, e.g. order.paid.' })
  get eventType(): string {
    return this.event.type;
  }
}
