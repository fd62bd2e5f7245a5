import { Migration } from '@mikro-orm/migrations';

export class Migration20261123140000_shop_operations extends Migration {

  override name = 'Migration20261123140000_shop_operations';

  override up(): void | Promise<void> {
    // Discount codes: one of percent or amount off; codes are unique whatever their case.
    this.addSql(`create table "discount_code" ("id" serial primary key, "code" varchar(40) not null, "percent_off" int null, "amount_off" numeric(12,2) null, "starts_at" timestamptz null, "ends_at" timestamptz null, "max_uses" int null, "uses" int not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      constraint "discount_code_one_kind" check (("percent_off" is null) <> ("amount_off" is null)),
      constraint "discount_code_percent_range" check ("percent_off" is null or ("percent_off" between 1 and 100)),
      constraint "discount_code_amount_positive" check ("amount_off" is null or "amount_off" > 0),
      constraint "discount_code_uses_range" check ("uses" >= 0 and ("max_uses" is null or "uses" <= "max_uses")));`);
    this.addSql(`create unique index "discount_code_code_unique" on "discount_code" (lower("code"));`);

    // What an order was discounted by, and when it was refunded.
    this.addSql(`alter table "order" add "discount_code" varchar(40) null, add "discount_amount" numeric(12,2) not null default 0, add "refunded_at" timestamptz null;`);
    // Sales at a glance reads the charged orders of a time range (an index-only scan with the total).
    this.addSql(`create index "order_sales_index" on "order" ("created_at") include ("total") where "status" in ('paid', 'delivered');`);
    this.addSql(`create index "order_payment_reference_index" on "order" ("payment_reference") where "payment_reference" is not null;`);
    this.addSql(`create index "order_item_delivered_at_index" on "order_item" ("delivered_at") where "delivered_at" is not null;`);
    this.addSql(`create index "order_item_opened_at_index" on "order_item" ("opened_at") where "opened_at" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "order_item_opened_at_index";`);
    this.addSql(`drop index if exists "order_item_delivered_at_index";`);
    this.addSql(`drop index if exists "order_payment_reference_index";`);
    this.addSql(`drop index if exists "order_sales_index";`);
    this.addSql(`alter table "order" drop column "discount_code", drop column "discount_amount", drop column "refunded_at";`);
    this.addSql(`drop table if exists "discount_code" cascade;`);
  }
}
