import { Migration } from '@mikro-orm/migrations';

/**
 * Gift memberships (contract section 18): the product type "Gift Membership" (made here when the shop
 * has none by that name; its id is whatever it gets), an order line that gives a plan's period to
 * someone, and each gift bought: a code kept as a digest and its last four characters, issued once
 * per line when the order is paid, redeemed once by a signed-in shopper (the membership it became
 * names it: one link, so that the tables' keys make no cycle) or voided when its order is refunded.
 */
export class Migration20261129150000_gift_memberships extends Migration {

  override name = 'Migration20261129150000_gift_memberships';

  override up(): void | Promise<void> {
    this.addSql(`insert into "product_type" ("name") select 'Gift Membership' where not exists (select 1 from "product_type" where lower("name") = 'gift membership');`);
    this.addSql(`alter table "order_item" add column "gift_membership_plan_id" integer null references "membership_plan" ("id");`);
    this.addSql(`create table "gift_membership" (
      "id" serial primary key,
      "code_digest" char(64) not null,
      "last4" char(4) not null,
      "plan_id" integer not null references "membership_plan" ("id"),
      "order_id" uuid not null,
      "order_item_id" integer not null,
      "recipient_email" varchar(254) not null,
      "recipient_name" varchar(100) not null,
      "sender_name" varchar(100) not null,
      "message" text null,
      "status" text not null default 'unredeemed' check ("status" in ('unredeemed', 'redeemed', 'voided')),
      "redeemed_by" integer null references "app_user" ("id") on delete set null,
      "redeemed_at" timestamptz null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`create unique index "gift_membership_code_unique" on "gift_membership" ("code_digest");`);
    // A line's gift is issued once, whoever settles its order.
    this.addSql(`create unique index "gift_membership_order_item_unique" on "gift_membership" ("order_item_id");`);
    this.addSql(`alter table "membership" add column "gift_membership_id" integer null references "gift_membership" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "membership" drop column if exists "gift_membership_id";`);
    this.addSql(`drop table if exists "gift_membership";`);
    this.addSql(`alter table "order_item" drop column if exists "gift_membership_plan_id";`);
  }

}
