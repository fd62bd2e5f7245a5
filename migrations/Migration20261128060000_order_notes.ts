import { Migration } from '@mikro-orm/migrations';

/**
 * Internal notes on orders, and the reasons given for refunds (contract section 16): the shop's people
 * write them; shoppers never see them.
 */
export class Migration20261128060000_order_notes extends Migration {

  override name = 'Migration20261128060000_order_notes';

  override up(): void | Promise<void> {
    this.addSql(`create table "order_note" (
      "id" serial primary key,
      "order_id" uuid not null,
      "text" text not null,
      "author" varchar(100) not null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "order_note_order_index" on "order_note" ("order_id", "created_at");`);
    this.addSql(`alter table "order" add column "refund_reason" text null;`);
    this.addSql(`alter table "order_note" add constraint "order_note_order_id_foreign" foreign key ("order_id") references "order" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "order_note" cascade;`);
    this.addSql(`alter table "order" drop column if exists "refund_reason";`);
  }

}
