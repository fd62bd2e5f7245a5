import { Migration } from '@mikro-orm/migrations';

export class Migration20261123033928_orders extends Migration {

  override name = 'Migration20261123033928_orders';

  override up(): void | Promise<void> {
    // Trigram indexes make the admin's substring search of orders fast at any size.
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "order" ("id" uuid not null, "purchaser_email" varchar(254) not null, "status" text not null default 'pending', "total" numeric(12,2) not null, "user_id" int null, "payment_provider" varchar(40) not null, "payment_reference" varchar(200) not null, "card_last4" char(4) null, "card_brand" varchar(40) null, "idempotency_key" varchar(100) not null, "request_hash" varchar(64) not null, "item_names" text not null, "search_text" text generated always as (lower("id"::text || ' ' || "purchaser_email" || ' ' || "status"::text || ' ' || "item_names")) stored not null, "receipt_sent_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "order" add constraint "order_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`create index "order_search_index" on "order" using gin ("search_text" gin_trgm_ops);`);
    this.addSql(`create index "order_newest_index" on "order" ("created_at" desc, "id" desc);`);

    this.addSql(`create table "order_item" ("id" serial primary key, "order_id" uuid not null, "position" smallint not null, "product_id" int null, "name" varchar(200) not null, "price" numeric(12,2) not null, "quantity" smallint not null, "item_url_uuid" uuid null, "recipient_name" varchar(100) null, "recipient_email" varchar(254) null, "sender_name" varchar(100) null, "message" text null, "deliver_at" timestamptz null, "time_zone" varchar(64) null, "card" jsonb null, "delivered_at" timestamptz null, "opened_at" timestamptz null);`);
    this.addSql(`create index "order_item_product_id_index" on "order_item" ("product_id");`);
    this.addSql(`alter table "order_item" add constraint "order_item_item_url_uuid_unique" unique ("item_url_uuid");`);
    this.addSql(`alter table "order_item" add constraint "order_item_order_position_unique" unique ("order_id", "position");`);

    this.addSql(`create table "mail_job" ("id" serial primary key, "kind" text not null, "order_id" uuid not null, "item_id" int null, "due_at" timestamptz not null, "status" text not null default 'queued', "attempts" smallint not null default 0, "last_error" text null, "sent_at" timestamptz null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "mail_job_item_id_index" on "mail_job" ("item_id");`);
    this.addSql(`create unique index "mail_job_receipt_unique" on "mail_job" ("order_id") where "kind" = 'receipt';`);
    this.addSql(`create unique index "mail_job_card_unique" on "mail_job" ("item_id") where "kind" = 'card';`);
    this.addSql(`create index "mail_job_due_index" on "mail_job" ("due_at", "id") where "status" = 'queued';`);

    this.addSql(`alter table "order" add constraint "order_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete set null;`);
    this.addSql(`alter table "order" add constraint "order_total_not_negative" check (total >= 0);`);
    this.addSql(`alter table "order" add constraint "order_status_check" check ("status" in ('pending', 'paid', 'delivered', 'cancelled', 'refunded'));`);

    this.addSql(`alter table "order_item" add constraint "order_item_order_id_foreign" foreign key ("order_id") references "order" ("id") on delete cascade;`);
    this.addSql(`alter table "order_item" add constraint "order_item_product_id_foreign" foreign key ("product_id") references "product" ("id") on delete set null;`);
    this.addSql(`alter table "order_item" add constraint "order_item_quantity_positive" check (quantity between 1 and 99);`);

    this.addSql(`alter table "mail_job" add constraint "mail_job_order_id_foreign" foreign key ("order_id") references "order" ("id") on delete cascade;`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_item_id_foreign" foreign key ("item_id") references "order_item" ("id") on delete cascade;`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_kind_check" check ("kind" in ('card', 'card-resend', 'receipt'));`);
    this.addSql(`alter table "mail_job" add constraint "mail_job_status_check" check ("status" in ('queued', 'sent', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "order_item" drop constraint "order_item_order_id_foreign";`);
    this.addSql(`alter table "mail_job" drop constraint "mail_job_order_id_foreign";`);
    this.addSql(`alter table "mail_job" drop constraint "mail_job_item_id_foreign";`);

    this.addSql(`drop table if exists "order" cascade;`);
    this.addSql(`drop table if exists "order_item" cascade;`);
    this.addSql(`drop table if exists "mail_job" cascade;`);
  }

}
