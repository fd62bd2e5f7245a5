import { Migration } from '@mikro-orm/migrations';

/**
 * The console's list of every product (contract section 16): sorted by its last change, paged by a
 * keyset ending with the id; and searched by words through a trigram index (the shop's search too).
 */
export class Migration20261128050000_admin_products extends Migration {

  override name = 'Migration20261128050000_admin_products';

  override up(): void | Promise<void> {
    this.addSql(`create index "product_updated_sort_index" on "product" ("updated_at", "id");`);
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create index "product_search_index" on "product" using gin ("search_text" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "product_updated_sort_index";`);
    this.addSql(`drop index if exists "product_search_index";`);
  }

}
