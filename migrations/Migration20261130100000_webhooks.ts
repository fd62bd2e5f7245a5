import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks (contract section 19). An endpoint: its URL, the events it takes, its signing secret
 * (kept as it is: the shop signs every delivery with it), who made it, since when its deliveries
 * have all been failing, and when and why it was turned off. An event: one row per change, written
 * in the change's transaction (the outbox). A delivery: one row per event and subscribed endpoint,
 * claimed by the workers with FOR UPDATE SKIP LOCKED (a claim is a lease: its next attempt moved to
 * the lease's end, so a dead worker's claims fall due again by themselves) and retried with backoff
 * until `retry_until`, three days after the event.
 */
export class Migration20261130100000_webhooks extends Migration {

  override name = 'Migration20261130100000_webhooks';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhook_endpoint" (
      "id" serial primary key,
      "url" varchar(2000) not null,
      "events" text[] not null check (cardinality("events") > 0 and "events" <@ array['order.paid', 'order.refunded', 'order.delivered', 'card.opened', 'card.replied', 'product.created', 'product.updated', 'product.deleted', 'customer.created']::text[]),
      "secret" varchar(64) not null,
      "created_by" varchar(32) null,
      "created_at" timestamptz not null default now(),
      "failing_since" timestamptz null,
      "disabled_at" timestamptz null,
      "disabled_reason" text null
    );`);
    this.addSql(`create table "webhook_event" (
      "id" uuid primary key default gen_random_uuid(),
      "type" varchar(40) not null,
      "data" jsonb not null,
      "created_at" timestamptz not null default now()
    );`);
    // Old events (and their deliveries) are swept by age.
    this.addSql(`create index "webhook_event_created_index" on "webhook_event" ("created_at");`);
    this.addSql(`create table "webhook_delivery" (
      "id" serial primary key,
      "event_id" uuid not null references "webhook_event" ("id") on delete cascade,
      "endpoint_id" int not null references "webhook_endpoint" ("id") on delete cascade,
      "status" varchar(10) not null default 'pending' check ("status" in ('pending', 'succeeded', 'failed')),
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz null,
      "retry_until" timestamptz not null,
      "last_status_code" smallint null,
      "last_error" text null,
      "last_attempt_at" timestamptz null,
      "claim_token" uuid null,
      "created_at" timestamptz not null default now(),
      check (("status" = 'pending') = ("next_attempt_at" is not null))
    );`);
    // The workers' claim: the pending deliveries by when they fall due.
    this.addSql(`create index "webhook_delivery_due_index" on "webhook_delivery" ("next_attempt_at") where "status" = 'pending';`);
    // An endpoint's recent deliveries, newest first (the console's list).
    this.addSql(`create index "webhook_delivery_endpoint_index" on "webhook_delivery" ("endpoint_id", "id");`);
    this.addSql(`create index "webhook_delivery_event_index" on "webhook_delivery" ("event_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "webhook_delivery";`);
    this.addSql(`drop table if exists "webhook_event";`);
    this.addSql(`drop table if exists "webhook_endpoint";`);
  }
}
