import { Migration } from '@mikro-orm/migrations';

export class Migration20261122173004_initial extends Migration {

  override name = 'Migration20261122173004_initial';

  override up(): void | Promise<void> {
    this.addSql(`create type "user_role" as enum ('admin', 'customer');`);
    this.addSql(`create table "setting" ("key" varchar(64) not null, "value" text not null, "updated_at" timestamptz not null default now(), primary key ("key"));`);

    this.addSql(`create table "app_user" ("id" serial primary key, "username" varchar(32) not null, "email" varchar(254) not null, "password_hash" varchar(255) not null, "role" "user_role" not null default 'customer', "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "app_user" add constraint "app_user_username_unique" unique ("username");`);
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email");`);
    // Usernames are unique whatever their case: "Alice" cannot register beside "alice".
    this.addSql(`create unique index "app_user_username_lower_unique" on "app_user" (lower("username"));`);

    this.addSql(`create table "auth_session" ("jti" uuid not null, "user_id" int not null, "expires_at" timestamptz not null, "created_at" timestamptz not null default now(), primary key ("jti"));`);
    this.addSql(`create index "auth_session_user_id_index" on "auth_session" ("user_id");`);

    this.addSql(`alter table "auth_session" add constraint "auth_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);

    this.addSql(`insert into "setting" ("key", "value") values ('underConstructionMode', 'false');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "auth_session" drop constraint "auth_session_user_id_foreign";`);

    this.addSql(`drop table if exists "setting" cascade;`);
    this.addSql(`drop table if exists "app_user" cascade;`);
    this.addSql(`drop table if exists "auth_session" cascade;`);

    this.addSql(`drop type "user_role";`);
  }

}
