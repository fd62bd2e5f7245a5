import { Migration } from '@mikro-orm/migrations';

/**
 * Product status (contract section 16): a product is a draft, active or archived; shoppers see the
 * active ones only. Every product there is stays active.
 */
export class Migration20261128040000_product_status extends Migration {

  override name = 'Migration20261128040000_product_status';

  override up(): void | Promise<void> {
    this.addSql(`alter table "product" add column "status" varchar(8) not null default 'active';`);
    this.addSql(`alter table "product" add constraint "product_status_check" check ("status" in ('draft', 'active', 'archived'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "product" drop constraint if exists "product_status_check";`);
    this.addSql(`alter table "product" drop column if exists "status";`);
  }

}
