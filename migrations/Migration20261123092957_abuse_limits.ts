import { Migration } from '@mikro-orm/migrations';

export class Migration20261123092957_abuse_limits extends Migration {

  override name = 'Migration20261123092957_abuse_limits';

  override up(): void | Promise<void> {
    // The counters of the abuse limits (rate-limiter-flexible's PostgreSQL store; not an entity).
    this.addSql(`create table "rate_limit" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`);
    this.addSql(`create index "rate_limit_expire_index" on "rate_limit" ("expire");`);

    // Files shown by sold cards outlive their library rows; the cards already sold are recorded too.
    this.addSql(`create table "sold_media" ("key" varchar(200) not null, "mime_type" varchar(100) not null, "created_at" timestamptz not null default now(), primary key ("key"));`);
    this.addSql(`insert into "sold_media" ("key", "mime_type")
      select distinct on (substr(m->>'path', 9)) substr(m->>'path', 9), m->>'mimeType'
        from "order_item" i,
             lateral jsonb_array_elements(jsonb_build_array(i.card->'cover', i.card->'greeting', i.card->'back') || coalesce(i.card->'extras', '[]') || coalesce(i.card->'songs', '[]')) m
       where i.card is not null and jsonb_typeof(m) = 'object' and m->>'path' like 'uploads/%'
      on conflict do nothing;`);

    this.addSql(`alter table "order" alter column "payment_reference" drop not null;`);

    this.addSql(`alter table "mail_job" drop constraint "mail_job_kind_check";`);
    this.addSql(`alter table "mail_job" drop constraint "mail_job_status_check";`);
    this.addSql(`alter table "mail_job" add "first_attempt_at" timestamptz null, add "claimed_until" timestamptz null;`);
    this.addSql(`alter table "mail_job" alter column "attempts" type int using ("attempts"::int);`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_kind_check" check ("kind" in ('card', 'card-resend', 'receipt', 'receipt-resend'));`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_status_check" check ("status" in ('queued', 'sending', 'sent', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sold_media" cascade;`);

    this.addSql(`alter table "mail_job" drop constraint "mail_job_kind_check";`);
    this.addSql(`alter table "mail_job" drop constraint "mail_job_status_check";`);
    this.addSql(`alter table "mail_job" drop column "first_attempt_at", drop column "claimed_until";`);
    this.addSql(`alter table "mail_job" alter column "attempts" type int2 using ("attempts"::int2);`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_kind_check" check ("kind" in ('card', 'card-resend', 'receipt'));`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_status_check" check ("status" in ('queued', 'sent', 'failed'));`);

    this.addSql(`alter table "order" alter column "payment_reference" set not null;`);
    this.addSql(`drop table if exists "rate_limit";`);
  }

}
