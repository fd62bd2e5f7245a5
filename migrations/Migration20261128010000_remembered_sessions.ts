import { Migration } from '@mikro-orm/migrations';

/**
 * "Keep me signed in" (contract section 15): the browsers that hold a `session` cookie, the cookies
 * they already swapped for newer ones, and the link from each issued token to its session.
 */
export class Migration20261128010000_remembered_sessions extends Migration {

  override name = 'Migration20261128010000_remembered_sessions';

  override up(): void | Promise<void> {
    this.addSql(`create table "remembered_session" ("id" uuid not null, "user_id" int not null, "token_hash" char(64) not null, "rotated_at" timestamptz not null default now(), "expires_at" timestamptz not null, "created_at" timestamptz not null default now(), constraint "remembered_session_pkey" primary key ("id"));`);
    this.addSql(`create index "remembered_session_user_id_index" on "remembered_session" ("user_id");`);
    this.addSql(`alter table "remembered_session" add constraint "remembered_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "remembered_session" add constraint "remembered_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "remembered_session_retired" ("token_hash" char(64) not null, "session_id" uuid not null, "retired_at" timestamptz not null, constraint "remembered_session_retired_pkey" primary key ("token_hash"));`);
    this.addSql(`create index "remembered_session_retired_session_id_index" on "remembered_session_retired" ("session_id");`);
    this.addSql(`alter table "remembered_session_retired" add constraint "remembered_session_retired_session_id_foreign" foreign key ("session_id") references "remembered_session" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "auth_session" add column "remembered_session_id" uuid null;`);
    this.addSql(`create index "auth_session_remembered_session_id_index" on "auth_session" ("remembered_session_id");`);
    this.addSql(`alter table "auth_session" add constraint "auth_session_remembered_session_id_foreign" foreign key ("remembered_session_id") references "remembered_session" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "auth_session" drop constraint "auth_session_remembered_session_id_foreign";`);
    this.addSql(`alter table "auth_session" drop column "remembered_session_id";`);
    this.addSql(`drop table if exists "remembered_session_retired" cascade;`);
    this.addSql(`drop table if exists "remembered_session" cascade;`);
  }

}
