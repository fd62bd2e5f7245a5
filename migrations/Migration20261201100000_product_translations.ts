import { Migration } from '@mikro-orm/migrations';

/**
 * Product content in the shop's other languages (contract section 20): per product and language a
 * name, a description and (for a card) a default message, each empty when not translated (the
 * English is shown instead). A card gets its default message in English too: the message its
 * personalisation form starts from. The translation's words are searched as the product's own are,
 * through a trigram index.
 */
export class Migration20261201100000_product_translations extends Migration {

  override name = 'Migration20261201100000_product_translations';

  override up(): void | Promise<void> {
    this.addSql(`alter table "e_greeting_card" add column "default_message" text not null default '';`);
    this.addSql(`create table "product_translation" (
      "product_id" integer not null references "product" ("id") on update cascade on delete cascade,
      "locale" varchar(2) not null,
      "name" varchar(200) not null default '',
      "description" text not null default '',
      "default_message" text not null default '',
      "search_text" text generated always as (lower("name" || ' ' || "description")) stored,
      constraint "product_translation_pkey" primary key ("product_id", "locale"),
      constraint "product_translation_locale_check" check ("locale" in ('de', 'fr', 'es')));`);
    this.addSql(`create index "product_translation_search_index" on "product_translation" using gin ("search_text" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "product_translation";`);
    this.addSql(`alter table "e_greeting_card" drop column if exists "default_message";`);
  }

}
