import { Migration } from '@mikro-orm/migrations';

/**
 * The shop sorted by price (either way) and newest first (contract section 15): an index for each
 * order, ending with the id as the keyset pages do, so a page is read in order without a sort.
 */
export class Migration20261128020000_product_sorts extends Migration {

  override name = 'Migration20261128020000_product_sorts';

  override up(): void | Promise<void> {
    this.addSql(`create index "product_price_sort_index" on "product" ("price", "id");`);
    this.addSql(`create index "product_created_sort_index" on "product" ("created_at", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "product_price_sort_index";`);
    this.addSql(`drop index if exists "product_created_sort_index";`);
  }

}
