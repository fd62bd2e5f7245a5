import { Migration } from '@mikro-orm/migrations';

export class Migration20261122193136_catalogue extends Migration {

  override name = 'Migration20261122193136_catalogue';

  override up(): void | Promise<void> {
    this.addSql(`create table "category" ("id" serial primary key, "name" varchar(200) not null, "parent_id" int null, "media_id" int null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "category_parent_id_index" on "category" ("parent_id");`);

    this.addSql(`create table "product_type" ("id" serial primary key, "name" varchar(100) not null);`);
    this.addSql(`create unique index "product_type_name_lower_unique" on "product_type" (lower("name"));`);

    this.addSql(`alter table "category" add constraint "category_parent_id_foreign" foreign key ("parent_id") references "category" ("id") on delete cascade;`);
    this.addSql(`alter table "category" add constraint "category_media_id_foreign" foreign key ("media_id") references "media_file" ("id") on delete set null;`);

    // The built-in product types keep their ids (1–3); new ones count on from there.
    this.addSql(`insert into "product_type" ("id", "name") values (1, 'E-Greeting Card'), (2, 'Music Album'), (3, 'Image Collection');`);
    this.addSql(`select setval(pg_get_serial_sequence('product_type', 'id'), 3);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "category" drop constraint "category_parent_id_foreign";`);

    this.addSql(`drop table if exists "category" cascade;`);
    this.addSql(`drop table if exists "product_type" cascade;`);
  }

}
