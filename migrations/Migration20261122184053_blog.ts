import { Migration } from '@mikro-orm/migrations';

export class Migration20261122184053_blog extends Migration {

  override name = 'Migration20261122184053_blog';

  override up(): void | Promise<void> {
    this.addSql(`create type "blog_post_status" as enum ('draft', 'published');`);
    this.addSql(`create table "blog_post" ("id" serial primary key, "title" varchar(200) not null, "slug" varchar(120) not null, "excerpt" text not null default '', "body" text not null default '', "html" text not null default '', "meta_description" varchar(300) null, "cover_image_id" int null, "status" "blog_post_status" not null default 'draft', "published_at" timestamptz null, "author_id" int null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`alter table "blog_post" add constraint "blog_post_slug_unique" unique ("slug");`);
    this.addSql(`create index "blog_post_published_index" on "blog_post" ("status", "published_at", "id");`);

    this.addSql(`alter table "blog_post" add constraint "blog_post_cover_image_id_foreign" foreign key ("cover_image_id") references "media_file" ("id") on delete set null;`);
    this.addSql(`alter table "blog_post" add constraint "blog_post_author_id_foreign" foreign key ("author_id") references "app_user" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "blog_post" cascade;`);

    this.addSql(`drop type "blog_post_status";`);
  }

}
