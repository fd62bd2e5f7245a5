import { Migration } from '@mikro-orm/migrations';

export class Migration20261123012032_products extends Migration {

  override name = 'Migration20261123012032_products';

  override up(): void | Promise<void> {
    this.addSql(`create type "message_location" as enum ('top-left', 'top-center', 'top-right', 'middle-left', 'middle-center', 'middle-right', 'bottom-left', 'bottom-right');`);
    this.addSql(`create table "product" ("id" serial primary key, "name" varchar(200) not null, "sort_name" varchar(200) generated always as (lower("name")) stored not null, "description" text not null default '', "sku" varchar(64) null, "price" numeric(12,2) not null, "category_id" int not null, "product_type_id" int not null, "main_image_id" int null, "tags" text[] not null default '{}', "search_text" text not null default '', "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "product_product_type_id_index" on "product" ("product_type_id");`);
    this.addSql(`create index "product_main_image_id_index" on "product" ("main_image_id");`);
    this.addSql(`create unique index "product_sku_unique" on "product" (lower("sku")) where "sku" is not null;`);
    this.addSql(`create index "product_sort_index" on "product" ("sort_name", "id");`);
    this.addSql(`create index "product_category_sort_index" on "product" ("category_id", "sort_name", "id");`);

    this.addSql(`create table "product_image" ("id" serial primary key, "product_id" int not null, "file_id" int not null, "position" smallint not null);`);
    this.addSql(`create index "product_image_file_id_index" on "product_image" ("file_id");`);
    this.addSql(`alter table "product_image" add constraint "product_image_product_position_unique" unique ("product_id", "position");`);

    this.addSql(`create table "e_greeting_card" ("product_id" int not null, "message_location" "message_location" not null default 'middle-center', "font_name" varchar(100) null, "song_1_id" int null, "song_2_id" int null, "song_3_id" int null, "cover_image_id" int null, "greeting_image_id" int null, "back_image_id" int null, "extra_image_1_id" int null, "extra_image_2_id" int null, "extra_image_3_id" int null, primary key ("product_id"));`);

    this.addSql(`alter table "product" add constraint "product_category_id_foreign" foreign key ("category_id") references "category" ("id") on delete cascade;`);
    this.addSql(`alter table "product" add constraint "product_product_type_id_foreign" foreign key ("product_type_id") references "product_type" ("id") on delete no action;`);
    this.addSql(`alter table "product" add constraint "product_main_image_id_foreign" foreign key ("main_image_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "product" add constraint "product_price_positive" check (price > 0);`);

    this.addSql(`alter table "product_image" add constraint "product_image_product_id_foreign" foreign key ("product_id") references "product" ("id") on delete cascade;`);
    this.addSql(`alter table "product_image" add constraint "product_image_file_id_foreign" foreign key ("file_id") references "media_file" ("id") on delete cascade;`);

    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_product_id_foreign" foreign key ("product_id") references "product" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_song_1_id_foreign" foreign key ("song_1_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_song_2_id_foreign" foreign key ("song_2_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_song_3_id_foreign" foreign key ("song_3_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_cover_image_id_foreign" foreign key ("cover_image_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_greeting_image_id_foreign" foreign key ("greeting_image_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_back_image_id_foreign" foreign key ("back_image_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_extra_image_1_id_foreign" foreign key ("extra_image_1_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_extra_image_2_id_foreign" foreign key ("extra_image_2_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "e_greeting_card" add constraint "e_greeting_card_extra_image_3_id_foreign" foreign key ("extra_image_3_id") references "media_file" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "product_image" drop constraint "product_image_product_id_foreign";`);
    this.addSql(`alter table "e_greeting_card" drop constraint "e_greeting_card_product_id_foreign";`);

    this.addSql(`drop table if exists "product" cascade;`);
    this.addSql(`drop table if exists "product_image" cascade;`);
    this.addSql(`drop table if exists "e_greeting_card" cascade;`);

    this.addSql(`drop type "message_location";`);
  }

}
