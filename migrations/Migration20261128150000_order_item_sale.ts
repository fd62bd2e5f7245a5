import { Migration } from '@mikro-orm/migrations';

/**
 * What a line of an order was compared with when it was sold (the regular price a running sale
 * lowered, or the product's compare-at price), and the sale that priced it: the receipt shows the
 * saving, and Sales counts revenue and orders per sale.
 */
export class Migration20261128150000_order_item_sale extends Migration {

  override name = 'Migration20261128150000_order_item_sale';

  override up(): void | Promise<void> {
    this.addSql(`alter table "order_item" add column "compare_at_price" numeric(12,2) null, add column "sale_id" integer null references "sale" ("id") on delete set null;`);
    this.addSql(`alter table "order_item" add column "sale_name" varchar(120) null;`);
    this.addSql(`create index "order_item_sale_id_index" on "order_item" ("sale_id") where "sale_id" is not null;`);
    // Sales' revenue per promotion reads only the lines a sale priced and the orders a discount applied to.
    this.addSql(`create index "order_item_sold_in_sale_index" on "order_item" ("order_id") where "sale_name" is not null;`);
    this.addSql(`create index "order_discounted_created_index" on "order" ("created_at") where "discount_name" is not null or "discount_code" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "order_discounted_created_index";`);
    this.addSql(`alter table "order_item" drop column if exists "sale_name", drop column if exists "sale_id", drop column if exists "compare_at_price";`);
  }

}
