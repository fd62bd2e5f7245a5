import { Migration } from '@mikro-orm/migrations';

export class Migration20261126120000_contacts extends Migration {

  override name = 'Migration20261126120000_contacts';

  override up(): void | Promise<void> {
    // The shopper's time zone (their occasion reminders come at 09:00 there).
    this.addSql(`alter table "app_user" add column "time_zone" varchar(64) null;`);

    // The address book: one account's contacts, each address once, read in name order.
    this.addSql(`create table "contact" (
      "id" serial primary key,
      "user_id" int not null,
      "name" varchar(100) not null,
      "email" varchar(254) not null,
      "name_key" text generated always as (lower("name")) stored,
      "search_text" text generated always as (lower("name" || ' ' || "email")) stored,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`alter table "contact" add constraint "contact_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "contact" add constraint "contact_user_email_unique" unique ("user_id", "email");`);
    this.addSql(`create index "contact_user_name_index" on "contact" ("user_id", "name_key", "id");`);

    // Occasions: a day of the year, every year, with the time of its next reminder.
    this.addSql(`create table "contact_occasion" (
      "id" serial primary key,
      "contact_id" int not null,
      "label" varchar(40) not null,
      "month" smallint not null,
      "day" smallint not null,
      "year" smallint null,
      "remind" boolean not null default true,
      "remind_days_before" smallint not null default 7,
      "next_remind_at" timestamptz null,
      "reminded_at" timestamptz null,
      constraint "contact_occasion_date_range" check (month between 1 and 12 and day between 1 and 31),
      constraint "contact_occasion_remind_range" check (remind_days_before between 1 and 30)
    );`);
    this.addSql(`alter table "contact_occasion" add constraint "contact_occasion_contact_id_foreign" foreign key ("contact_id") references "contact" ("id") on update cascade on delete cascade;`);
    this.addSql(`create unique index "contact_occasion_label_unique" on "contact_occasion" ("contact_id", lower("label"));`);
    this.addSql(`create index "contact_occasion_due_index" on "contact_occasion" ("next_remind_at") where "next_remind_at" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "contact_occasion" cascade;`);
    this.addSql(`drop table if exists "contact" cascade;`);
    this.addSql(`alter table "app_user" drop column if exists "time_zone";`);
  }

}
