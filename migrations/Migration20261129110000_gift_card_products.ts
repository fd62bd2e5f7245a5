import { Migration } from '@mikro-orm/migrations';

/**
 * Gift cards sold in the shop: the product type "Gift Card" (made here when the shop has none by that
 * name; an older shop may have used id 4 for something else, so its id is whatever it gets), order
 * lines marked as gift cards (their price is the amount chosen), and each card bought tied to its
 * line (one card per line, issued once when the order is paid) with what its page shows: the design,
 * who sent it, to whom, and the message.
 */
export class Migration20261129110000_gift_card_products extends Migration {

  override name = 'Migration20261129110000_gift_card_products';

  override up(): void | Promise<void> {
    this.addSql(`insert into "product_type" ("name") select 'Gift Card' where not exists (select 1 from "product_type" where lower("name") = 'gift card');`);
    this.addSql(`alter table "order_item" add column "gift_card" boolean not null default false;`);
    this.addSql(`alter table "gift_card" add column "order_item_id" integer null, add column "design_path" varchar(500) null, add column "sender_name" varchar(100) null, add column "recipient_name" varchar(100) null, add column "message" text null;`);
    // A line's card is issued once, whoever settles its order.
    this.addSql(`create unique index "gift_card_order_item_unique" on "gift_card" ("order_item_id") where "order_item_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "gift_card_order_item_unique";`);
    this.addSql(`alter table "gift_card" drop column if exists "message", drop column if exists "recipient_name", drop column if exists "sender_name", drop column if exists "design_path", drop column if exists "order_item_id";`);
    this.addSql(`alter table "order_item" drop column if exists "gift_card";`);
  }

}
