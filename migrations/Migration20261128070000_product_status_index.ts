import { Migration } from '@mikro-orm/migrations';

/** The console's list filtered by a status (drafts and archived products are few): by name within each status. */
export class Migration20261128070000_product_status_index extends Migration {

  override name = 'Migration20261128070000_product_status_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "product_status_sort_index" on "product" ("status", "sort_name", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "product_status_sort_index";`);
  }

}
