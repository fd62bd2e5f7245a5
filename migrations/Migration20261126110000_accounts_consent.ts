import { Migration } from '@mikro-orm/migrations';

export class Migration20261126110000_accounts_consent extends Migration {

  override name = 'Migration20261126110000_accounts_consent';

  override up(): void | Promise<void> {
    // A purchaser may turn off the "opened" notices for every order of their account.
    this.addSql(`alter table "app_user" add column "notify_opened" boolean not null default true;`);

    // The links the shop e-mails about an account: password reset (1 hour), confirmation of the
    // account's address (7 days), confirmation of a new address (7 days). Only a SHA-256 digest of
    // each link's token is kept. A reset asked for an address no account uses is recorded the same
    // way (user_id null, never usable), so that both requests do the same work.
    this.addSql(`create table "account_token" (
      "id" serial primary key,
      "purpose" text not null,
      "user_id" int null,
      "email" varchar(254) not null,
      "token_hash" char(64) not null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      constraint "account_token_purpose_check" check ("purpose" in ('password-reset', 'email-confirm', 'email-change')),
      constraint "account_token_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade
    );`);
    this.addSql(`create unique index "account_token_token_hash_unique" on "account_token" ("token_hash");`);
    this.addSql(`create index "account_token_user_index" on "account_token" ("user_id", "purpose") where "used_at" is null;`);
    this.addSql(`create index "account_token_expires_index" on "account_token" ("expires_at");`);

    // Recipients who said no: the SHA-256 digest of each address (trimmed, lower-cased), so that the
    // table is no list of addresses, yet any address can be checked against it.
    this.addSql(`create table "unsubscribed_address" (
      "address_hash" char(64) primary key,
      "created_at" timestamptz not null default now()
    );`);

    // The key of unsubscribe links: random (gen_random_uuid draws from the server's strong random
    // source), kept in the database so that every process and every restart reads the links the
    // others wrote, for as long as their e-mails are kept.
    this.addSql(`insert into "setting" ("key", "value") values ('unsubscribeSecret', encode(sha256((gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text)::bytea), 'base64')) on conflict ("key") do nothing;`);

    // Guest orders by their purchaser's address: the ones a newly confirmed address takes in.
    this.addSql(`create index "order_guest_email_index" on "order" ("purchaser_email") where "user_id" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "order_guest_email_index";`);
    this.addSql(`delete from "setting" where "key" = 'unsubscribeSecret';`);
    this.addSql(`drop table if exists "unsubscribed_address";`);
    this.addSql(`drop table if exists "account_token";`);
    this.addSql(`alter table "app_user" drop column "notify_opened";`);
  }
}
