import { Migration } from '@mikro-orm/migrations';

/** The e-card loop: opened notices, thank-you replies and reminders. */
export class Migration20261123130000_ecard_loop extends Migration {

  override name = 'Migration20261123130000_ecard_loop';

  override up(): void | Promise<void> {
    this.addSql(`alter table "order" add "notify_opened" boolean not null default true;`);
    this.addSql(`alter table "order_item" add "reminded_at" timestamptz null;`);

    this.addSql(`create table "ecard_reply" ("id" serial primary key, "item_id" int not null, "name" varchar(100) not null, "message" text not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "ecard_reply_item_id_index" on "ecard_reply" ("item_id");`);
    this.addSql(`alter table "ecard_reply" add constraint "ecard_reply_item_id_foreign" foreign key ("item_id") references "order_item" ("id") on delete cascade;`);

    this.addSql(`alter table "mail_job" add "reply_id" int null;`);
    this.addSql(`create index "mail_job_reply_id_index" on "mail_job" ("reply_id");`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_reply_id_foreign" foreign key ("reply_id") references "ecard_reply" ("id") on delete cascade;`);
    this.addSql(`alter table "mail_job" drop constraint "mail_job_kind_check";`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_kind_check" check ("kind" in ('card', 'card-resend', 'receipt', 'receipt-resend', 'opened', 'thank-you', 'reminder'));`);
    // One opened notice and one reminder per card, whoever records them.
    this.addSql(`create unique index "mail_job_opened_unique" on "mail_job" ("item_id") where "kind" = 'opened';`);
    this.addSql(`create unique index "mail_job_reminder_unique" on "mail_job" ("item_id") where "kind" = 'reminder';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "mail_job" where "kind" in ('opened', 'thank-you', 'reminder');`);
    this.addSql(`drop index if exists "mail_job_opened_unique";`);
    this.addSql(`drop index if exists "mail_job_reminder_unique";`);
    this.addSql(`alter table "mail_job" drop constraint "mail_job_kind_check";`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_kind_check" check ("kind" in ('card', 'card-resend', 'receipt', 'receipt-resend'));`);
    this.addSql(`alter table "mail_job" drop column "reply_id";`);
    this.addSql(`drop table if exists "ecard_reply" cascade;`);
    this.addSql(`alter table "order_item" drop column "reminded_at";`);
    this.addSql(`alter table "order" drop column "notify_opened";`);
  }

}
