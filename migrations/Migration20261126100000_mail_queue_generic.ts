import { Migration } from '@mikro-orm/migrations';

/**
 * The mail queue becomes generic (contract section 10): a job carries its kind (any kind a feature
 * registers), its recipient, a JSON payload, and optional reference columns (the order and the card
 * it belongs to, a free `ref`, a `dedupe_key`). The foreign keys to orders and cards stay: a job goes
 * with its order or card. A job a feature chose not to send is `withheld`, with the reason.
 */
export class Migration20261126100000_mail_queue_generic extends Migration {

  override name = 'Migration20261126100000_mail_queue_generic';

  override up(): void | Promise<void> {
    this.addSql(`alter table "mail_job" drop constraint if exists "mail_job_kind_check";`);
    this.addSql(`alter table "mail_job" drop constraint if exists "mail_job_status_check";`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_status_check" check ("status" in ('queued', 'sending', 'sent', 'failed', 'withheld'));`);
    this.addSql(`alter table "mail_job" alter column "order_id" drop not null;`);
    this.addSql(`alter table "mail_job" add column "recipient" text null, add column "payload" jsonb not null default '{}', add column "ref" text null, add column "dedupe_key" text null, add column "claim_token" uuid null;`);
    // Jobs queued before this carry their address in their order or card.
    this.addSql(`update "mail_job" j set "recipient" = coalesce(
        case when j."kind" in ('card', 'card-resend', 'reminder') then (select i."recipient_email" from "order_item" i where i."id" = j."item_id") end,
        (select o."purchaser_email" from "order" o where o."id" = j."order_id"));`);
    this.addSql(`update "mail_job" set "payload" = jsonb_build_object('replyId', "reply_id") where "reply_id" is not null;`);
    this.addSql(`update "mail_job" set "status" = 'withheld' where "status" = 'failed' and "last_error" = 'Not sent: the order was refunded.';`);
    this.addSql(`alter table "mail_job" drop column "reply_id";`);
    this.addSql(`create unique index "mail_job_dedupe_unique" on "mail_job" ("dedupe_key") where "dedupe_key" is not null;`);
    this.addSql(`create index "mail_job_ref_index" on "mail_job" ("ref") where "ref" is not null;`);
    this.addSql(`create index "mail_job_order_id_index" on "mail_job" ("order_id") where "order_id" is not null;`);
    // Claims whose lease ran out are found through this one (a worker that died mid-batch).
    this.addSql(`create index "mail_job_lease_index" on "mail_job" ("claimed_until") where "status" = 'sending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "mail_job_lease_index";`);
    this.addSql(`drop index if exists "mail_job_order_id_index";`);
    this.addSql(`drop index if exists "mail_job_ref_index";`);
    this.addSql(`drop index if exists "mail_job_dedupe_unique";`);
    this.addSql(`alter table "mail_job" add column "reply_id" int null references "ecard_reply" ("id") on delete cascade;`);
    this.addSql(`update "mail_job" set "reply_id" = ("payload"->>'replyId')::int where "payload" ? 'replyId';`);
    this.addSql(`delete from "mail_job" where "order_id" is null;`);
    this.addSql(`update "mail_job" set "status" = 'failed' where "status" = 'withheld';`);
    this.addSql(`alter table "mail_job" drop column "recipient", drop column "payload", drop column "ref", drop column "dedupe_key", drop column "claim_token";`);
    this.addSql(`alter table "mail_job" alter column "order_id" set not null;`);
    this.addSql(`alter table "mail_job" drop constraint if exists "mail_job_status_check";`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_status_check" check ("status" in ('queued', 'sending', 'sent', 'failed'));`);
  }
}
