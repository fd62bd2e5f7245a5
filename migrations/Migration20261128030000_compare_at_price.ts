import { Migration } from '@mikro-orm/migrations';

/**
 * Compare-at prices (contract sections 15 and 17): the regular price a product on sale is compared
 * with, above its price or none. The shop's "On sale" filter reads the few products that have one
 * through a partial index.
 */
export class Migration20261128030000_compare_at_price extends Migration {

  override name = 'Migration20261128030000_compare_at_price';

  override up(): void | Promise<void> {
    this.addSql(`alter table "product" add column "compare_at_price" numeric(12,2) null;`);
    this.addSql(`alter table "product" add constraint "product_compare_at_above_price" check (compare_at_price is null or compare_at_price > price);`);
    this.addSql(`create index "product_on_sale_index" on "product" ("price", "id") where "compare_at_price" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "product_on_sale_index";`);
    this.addSql(`alter table "product" drop constraint if exists "product_compare_at_above_price";`);
    this.addSql(`alter table "product" drop column if exists "compare_at_price";`);
  }

}
