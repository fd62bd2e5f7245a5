import { Migration } from '@mikro-orm/migrations';

export class Migration20261125200000_staff_and_audit extends Migration {

  override name = 'Migration20261125200000_staff_and_audit';

  override up(): void | Promise<void> {
    // The staff role. (A value added to an enum cannot be used in the transaction that adds it, so
    // nothing below names it: the invitation's role is plain text with its own check.)
    this.addSql(`alter type "user_role" add value if not exists 'staff' before 'customer';`);
    // Confirmed e-mail addresses (the confirmation link itself comes with the accounts work).
    this.addSql(`alter table "app_user" add column if not exists "email_confirmed_at" timestamptz null;`);

    this.addSql(`create table "staff_invitation" ("id" serial primary key, "email" varchar(254) not null, "role" text not null, "token_hash" char(64) not null, "invited_by_id" int null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "accepted_user_id" int null, "email_error" text null, "created_at" timestamptz not null default now(),
      constraint "staff_invitation_role_check" check ("role" in ('admin', 'staff')));`);
    this.addSql(`create unique index "staff_invitation_token_hash_unique" on "staff_invitation" ("token_hash");`);
    this.addSql(`create index "staff_invitation_open_index" on "staff_invitation" ("created_at" desc) where "accepted_at" is null;`);
    this.addSql(`alter table "staff_invitation" add constraint "staff_invitation_invited_by_id_foreign" foreign key ("invited_by_id") references "app_user" ("id") on delete set null;`);
    this.addSql(`alter table "staff_invitation" add constraint "staff_invitation_accepted_user_id_foreign" foreign key ("accepted_user_id") references "app_user" ("id") on delete set null;`);

    // The audit log: who changed what, written in the transaction of the change; kept a year.
    this.addSql(`create table "audit_entry" ("id" bigserial primary key, "at" timestamptz not null default now(), "actor_id" int null, "actor_name" varchar(32) not null, "actor_role" text not null, "entity" varchar(40) not null, "entity_id" varchar(64) null, "action" varchar(20) not null, "summary" varchar(500) not null);`);
    this.addSql(`alter table "audit_entry" add constraint "audit_entry_actor_id_foreign" foreign key ("actor_id") references "app_user" ("id") on delete set null;`);
    this.addSql(`create index "audit_entry_at_index" on "audit_entry" ("at" desc, "id" desc);`);
    this.addSql(`create index "audit_entry_actor_index" on "audit_entry" ("actor_id", "at" desc, "id" desc);`);
    this.addSql(`create index "audit_entry_entity_index" on "audit_entry" ("entity", "at" desc, "id" desc);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit_entry" cascade;`);
    this.addSql(`drop table if exists "staff_invitation" cascade;`);
    this.addSql(`alter table "app_user" drop column if exists "email_confirmed_at";`);
  }
}
