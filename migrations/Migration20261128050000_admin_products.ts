import { Migration } from '@mikro-orm/migrations';

/** The console's list of every product sorted by its last change (contract section 16), paged by a keyset ending with the id. */
export class Migration20261128050000_admin_products extends Migration {

  override name = 'Migration20261128050000_admin_products';

  override up(): void | Promise<void> {
    this.addSql(`create index "product_updated_sort_index" on "product" ("updated_at", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "product_updated_sort_index";`);
  }

}
