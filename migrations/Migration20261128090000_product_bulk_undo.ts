import { Migration } from '@mikro-orm/migrations';

/**
 * What a bulk action on products changed, kept for a day so that it can be undone (contract section
 * 16): each product's field before and after, for publish, archive, move and price.
 */
export class Migration20261128090000_product_bulk_undo extends Migration {

  override name = 'Migration20261128090000_product_bulk_undo';

  override up(): void | Promise<void> {
    this.addSql(`create table "product_bulk_change" (
      "id" uuid primary key,
      "action" varchar(16) not null,
      "products" jsonb not null,
      "created_at" timestamptz not null default now(),
      "undone_at" timestamptz null);`);
    this.addSql(`create index "product_bulk_change_created_index" on "product_bulk_change" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "product_bulk_change" cascade;`);
  }

}
