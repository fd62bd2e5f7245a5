import { Migration } from '@mikro-orm/migrations';

/**
 * The mail queue keeps no foreign key to another module's table: a job names what it is about as
 * text (`subject`: `order:…`; `ref`: `card:12`), as its feature wrote it. The one e-mail per order or
 * card of the receipt, card, "opened" and reminder kinds is kept by dedupe keys instead of unique
 * indexes on the old columns, and every job carries its address (the oldest ones had theirs in their
 * order or card). A feature that removes an order removes its e-mails itself.
 */
export class Migration20261127120000_mail_subjects extends Migration {

  override name = 'Migration20261127120000_mail_subjects';

  override up(): void | Promise<void> {
    this.addSql(`update "mail_job" j set "recipient" = coalesce(
        case when j."kind" in ('card', 'card-resend', 'reminder') then (select i."recipient_email" from "order_item" i where i."id" = j."item_id") end,
        (select o."purchaser_email" from "order" o where o."id" = j."order_id"))
      where j."recipient" is null;`);
    this.addSql(`alter table "mail_job" add column "subject" text null;`);
    this.addSql(`update "mail_job" set "subject" = 'order:' || "order_id" where "order_id" is not null;`);
    this.addSql(`update "mail_job" set "ref" = 'card:' || "item_id" where "item_id" is not null and "ref" is null;`);
    this.addSql(`update "mail_job" set "dedupe_key" = "kind" || ':' || "order_id" where "kind" = 'receipt' and "dedupe_key" is null;`);
    this.addSql(`update "mail_job" set "dedupe_key" = "kind" || ':' || "item_id" where "kind" in ('card', 'opened', 'reminder') and "item_id" is not null and "dedupe_key" is null;`);
    this.addSql(`alter table "mail_job" drop constraint if exists "mail_job_order_id_foreign";`);
    this.addSql(`alter table "mail_job" drop constraint if exists "mail_job_item_id_foreign";`);
    this.addSql(`drop index if exists "mail_job_receipt_unique";`);
    this.addSql(`drop index if exists "mail_job_card_unique";`);
    this.addSql(`drop index if exists "mail_job_opened_unique";`);
    this.addSql(`drop index if exists "mail_job_reminder_unique";`);
    this.addSql(`drop index if exists "mail_job_order_id_index";`);
    this.addSql(`drop index if exists "mail_job_item_id_index";`);
    this.addSql(`alter table "mail_job" drop column "order_id", drop column "item_id";`);
    this.addSql(`create index "mail_job_subject_index" on "mail_job" ("subject") where "subject" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "mail_job_subject_index";`);
    this.addSql(`alter table "mail_job" add column "order_id" uuid null, add column "item_id" int null;`);
    this.addSql(`update "mail_job" set "order_id" = substr("subject", 7)::uuid where "subject" like 'order:%';`);
    this.addSql(`update "mail_job" set "item_id" = substr("ref", 6)::int where "ref" like 'card:%';`);
    this.addSql(`update "mail_job" set "ref" = null where "ref" like 'card:%';`);
    this.addSql(`delete from "mail_job" j where j."order_id" is not null and not exists (select 1 from "order" o where o."id" = j."order_id");`);
    this.addSql(`delete from "mail_job" j where j."item_id" is not null and not exists (select 1 from "order_item" i where i."id" = j."item_id");`);
    this.addSql(`alter table "mail_job" drop column "subject";`);
    this.addSql(`create index "mail_job_item_id_index" on "mail_job" ("item_id");`);
    this.addSql(`create index "mail_job_order_id_index" on "mail_job" ("order_id") where "order_id" is not null;`);
    this.addSql(`create unique index "mail_job_receipt_unique" on "mail_job" ("order_id") where "kind" = 'receipt';`);
    this.addSql(`create unique index "mail_job_card_unique" on "mail_job" ("item_id") where "kind" = 'card';`);
    this.addSql(`create unique index "mail_job_opened_unique" on "mail_job" ("item_id") where "kind" = 'opened';`);
    this.addSql(`create unique index "mail_job_reminder_unique" on "mail_job" ("item_id") where "kind" = 'reminder';`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_order_id_foreign" foreign key ("order_id") references "order" ("id") on delete cascade;`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_item_id_foreign" foreign key ("item_id") references "order_item" ("id") on delete cascade;`);
  }

}
