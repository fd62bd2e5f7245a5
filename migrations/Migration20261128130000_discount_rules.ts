import { Migration } from '@mikro-orm/migrations';

/**
 * Discount codes with rules and automatic discounts (contract section 17).
 *
 * - A code may be limited to products and categories (a category with its subcategories), need a
 *   minimum subtotal, be for a first order only, or be usable once per customer. Once per customer
 *   is kept by `discount_redemption`: one row per code and customer key (`user:{id}` or
 *   `email:{address}`), inserted in the checkout's transaction, so that of two checkouts racing for
 *   the same customer's use the unique index lets one through. The order's row removed (a payment
 *   that failed) takes its redemptions with it.
 * - An automatic discount applies without a code: "N or more cards: P % off the cards" or "orders
 *   from X: Y off".
 * - An order records the discount that applied: its name (the code, or the automatic discount's
 *   name) and its kind.
 */
export class Migration20261128130000_discount_rules extends Migration {

  override name = 'Migration20261128130000_discount_rules';

  override up(): void | Promise<void> {
    this.addSql(`alter table "discount_code"
      add column "product_ids" int[] not null default '{}',
      add column "category_ids" int[] not null default '{}',
      add column "min_subtotal" numeric(12,2) null,
      add column "once_per_customer" boolean not null default false,
      add column "first_order_only" boolean not null default false,
      add constraint "discount_code_min_subtotal_positive" check ("min_subtotal" is null or "min_subtotal" > 0);`);

    this.addSql(`create table "discount_redemption" (
      "id" serial primary key,
      "discount_code_id" integer not null references "discount_code" ("id") on delete cascade,
      "customer_key" varchar(270) not null,
      "order_id" uuid not null references "order" ("id") on delete cascade deferrable initially deferred,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create unique index "discount_redemption_once_unique" on "discount_redemption" ("discount_code_id", "customer_key");`);
    this.addSql(`create index "discount_redemption_order_id_index" on "discount_redemption" ("order_id");`);

    this.addSql(`create table "automatic_discount" (
      "id" serial primary key,
      "name" varchar(120) not null,
      "min_cards" integer null check ("min_cards" between 1 and 1000),
      "percent_off" integer null check ("percent_off" between 1 and 100),
      "min_subtotal" numeric(12,2) null check ("min_subtotal" > 0),
      "amount_off" numeric(12,2) null check ("amount_off" > 0),
      "starts_at" timestamptz null,
      "ends_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "automatic_discount_one_kind" check (
        ("min_cards" is not null and "percent_off" is not null and "min_subtotal" is null and "amount_off" is null)
        or ("min_cards" is null and "percent_off" is null and "min_subtotal" is not null and "amount_off" is not null)),
      constraint "automatic_discount_ends_after_start" check ("starts_at" is null or "ends_at" is null or "ends_at" > "starts_at"));`);

    // Which discount an order got: a code's (discount_code keeps its spelling) or an automatic one.
    this.addSql(`alter table "order" add column "discount_name" varchar(120) null, add column "discount_kind" varchar(20) null
      check ("discount_kind" is null or "discount_kind" in ('code', 'cards', 'subtotal'));`);
    this.addSql(`update "order" set "discount_name" = "discount_code", "discount_kind" = 'code' where "discount_code" is not null;`);
    // "First order only" looks for an earlier paid order of the customer's address (kept in lower case).
    this.addSql(`create index "order_purchaser_email_index" on "order" ("purchaser_email");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "order_purchaser_email_index";`);
    this.addSql(`alter table "order" drop column "discount_name", drop column "discount_kind";`);
    this.addSql(`drop table if exists "automatic_discount";`);
    this.addSql(`drop table if exists "discount_redemption";`);
    this.addSql(`alter table "discount_code" drop constraint "discount_code_min_subtotal_positive", drop column "product_ids", drop column "category_ids", drop column "min_subtotal", drop column "once_per_customer", drop column "first_order_only";`);
  }

}
