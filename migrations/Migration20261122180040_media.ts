import { Migration } from '@mikro-orm/migrations';

export class Migration20261122180040_media extends Migration {

  override name = 'Migration20261122180040_media';

  override up(): void | Promise<void> {
    this.addSql(`create table "media_folder" ("id" serial primary key, "name" varchar(255) not null, "parent_id" int null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "media_folder_parent_id_index" on "media_folder" ("parent_id");`);

    this.addSql(`create table "media_file" ("id" serial primary key, "file_name" varchar(255) not null, "file_path" varchar(255) not null, "friendly_name" varchar(255) not null, "folder_id" int not null, "mime_type" varchar(100) not null, "size" int not null, "width" int null, "height" int null, "thumbnail_path" varchar(255) null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "media_file" add constraint "media_file_file_path_unique" unique ("file_path");`);
    this.addSql(`alter table "media_file" add constraint "media_file_thumbnail_path_unique" unique ("thumbnail_path");`);
    // Pages of a folder's files are keyset pages by id: (folder_id, id) serves both the filter and the order.
    this.addSql(`create index "media_file_folder_id_id_index" on "media_file" ("folder_id", "id");`);

    // Deleting a folder deletes its subfolders and their files; the service removes the bytes.
    this.addSql(`alter table "media_folder" add constraint "media_folder_parent_id_foreign" foreign key ("parent_id") references "media_folder" ("id") on delete cascade;`);

    this.addSql(`alter table "media_file" add constraint "media_file_folder_id_foreign" foreign key ("folder_id") references "media_folder" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "media_folder" drop constraint "media_folder_parent_id_foreign";`);
    this.addSql(`alter table "media_file" drop constraint "media_file_folder_id_foreign";`);

    this.addSql(`drop table if exists "media_folder" cascade;`);
    this.addSql(`drop table if exists "media_file" cascade;`);
  }

}
