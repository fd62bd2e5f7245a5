import { Migration } from '@mikro-orm/migrations';

/**
 * Memberships (contract section 18): plans the owner defines, a shopper's membership of one (at
 * most one current: active or past due), and every charge of it, each with the idempotency key it
 * was charged with (a renewal is charged once, whoever runs it). An order records the membership
 * that priced it (no foreign key: the orders are another module's).
 */
export class Migration20261129120000_memberships extends Migration {

  override name = 'Migration20261129120000_memberships';

  override up(): void | Promise<void> {
    this.addSql(`create table "membership_plan" (
      "id" serial primary key,
      "name" varchar(80) not null,
      "price" numeric(12,2) not null check ("price" > 0),
      "period" text not null check ("period" in ('month', 'year')),
      "ecards_included" boolean not null default true,
      "percent_off_other" smallint not null default 0 check ("percent_off_other" between 0 and 90),
      "active" boolean not null default true,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create unique index "membership_plan_name_unique" on "membership_plan" (lower("name"));`);
    this.addSql(`create table "membership" (
      "id" serial primary key,
      "user_id" integer not null references "app_user" ("id") on delete cascade,
      "plan_id" integer not null references "membership_plan" ("id"),
      "status" text not null check ("status" in ('active', 'past_due', 'cancelled', 'lapsed')),
      "provider" varchar(40) not null,
      "payment_method" varchar(200) null,
      "card_last4" char(4) null,
      "current_period_start" timestamptz not null,
      "current_period_end" timestamptz not null,
      "cancel_at_period_end" boolean not null default false,
      "past_due_since" timestamptz null,
      "reminded_for" timestamptz null,
      "ended_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    // One current membership a shopper: a second subscribe meanwhile is refused by this index.
    this.addSql(`create unique index "membership_current_unique" on "membership" ("user_id") where "status" in ('active', 'past_due');`);
    this.addSql(`create index "membership_due_index" on "membership" ("current_period_end") where "status" in ('active', 'past_due');`);
    // Sales counts members who joined and left in a period.
    this.addSql(`create index "membership_created_index" on "membership" ("created_at");`);
    this.addSql(`create index "membership_ended_index" on "membership" ("ended_at") where "ended_at" is not null;`);
    this.addSql(`create table "membership_charge" (
      "id" bigserial primary key,
      "membership_id" integer not null references "membership" ("id") on delete cascade,
      "amount" numeric(12,2) not null,
      "period_start" timestamptz not null,
      "period_end" timestamptz not null,
      "status" text not null check ("status" in ('paid', 'failed')),
      "reference" varchar(200) null,
      "message" text null,
      "idempotency_key" varchar(120) not null,
      "created_at" timestamptz not null default now(),
      constraint "membership_charge_key_unique" unique ("idempotency_key")
    );`);
    this.addSql(`create index "membership_charge_membership_index" on "membership_charge" ("membership_id", "id");`);
    this.addSql(`alter table "order" add column "membership_id" integer null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "order" drop column if exists "membership_id";`);
    this.addSql(`drop table if exists "membership_charge";`);
    this.addSql(`drop table if exists "membership";`);
    this.addSql(`drop table if exists "membership_plan";`);
  }

}
