import { Migration } from '@mikro-orm/migrations';

/**
 * Memberships through Stripe Billing (contract section 18). A membership whose first payment the
 * shopper has not yet confirmed is `incomplete` (no benefits); one never paid ends `expired`. A
 * shopper has at most one of those at a time besides the current one (a past-due member pays again
 * on a new subscription while the old one keeps its grace period). The provider's subscription, the
 * shopper's customer there and the plan's product and price are kept, so each is made once; the
 * price is remade when the plan's price or period changes (`provider_price_key` says which it was
 * made for). Each provider event is recorded by its id in the transaction that applies it, so a
 * repeated delivery changes nothing.
 */
export class Migration20261129130000_stripe_memberships extends Migration {

  override name = 'Migration20261129130000_stripe_memberships';

  override up(): void | Promise<void> {
    this.addSql(`alter table "membership" drop constraint if exists "membership_status_check";`);
    this.addSql(`alter table "membership" add constraint "membership_status_check" check ("status" in ('incomplete', 'active', 'past_due', 'cancelled', 'lapsed', 'expired'));`);
    this.addSql(`alter table "membership" add column "provider_subscription_id" varchar(200) null;`);
    this.addSql(`create unique index "membership_provider_subscription_unique" on "membership" ("provider_subscription_id") where "provider_subscription_id" is not null;`);
    this.addSql(`create unique index "membership_incomplete_unique" on "membership" ("user_id") where "status" = 'incomplete';`);
    this.addSql(`alter table "membership_plan" add column "provider_product_id" varchar(200) null, add column "provider_price_id" varchar(200) null, add column "provider_price_key" varchar(120) null;`);
    this.addSql(`create table "membership_customer" (
      "user_id" integer not null references "app_user" ("id") on delete cascade,
      "provider" varchar(40) not null,
      "customer_id" varchar(200) not null,
      "created_at" timestamptz not null default now(),
      primary key ("user_id", "provider")
    );`);
    this.addSql(`create table "membership_event" (
      "event_id" varchar(255) primary key,
      "type" varchar(120) not null,
      "membership_id" integer null references "membership" ("id") on delete set null,
      "received_at" timestamptz not null default now()
    );`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "membership_event";`);
    this.addSql(`drop table if exists "membership_customer";`);
    this.addSql(`alter table "membership_plan" drop column if exists "provider_product_id", drop column if exists "provider_price_id", drop column if exists "provider_price_key";`);
    this.addSql(`drop index if exists "membership_incomplete_unique";`);
    this.addSql(`drop index if exists "membership_provider_subscription_unique";`);
    this.addSql(`alter table "membership" drop column if exists "provider_subscription_id";`);
    this.addSql(`delete from "membership" where "status" in ('incomplete', 'expired');`);
    this.addSql(`alter table "membership" drop constraint if exists "membership_status_check";`);
    this.addSql(`alter table "membership" add constraint "membership_status_check" check ("status" in ('active', 'past_due', 'cancelled', 'lapsed'));`);
  }

}
