import { Migration } from '@mikro-orm/migrations';

/**
 * Group cards (contract section 14): a card's signing link and deadline, its signatures and the
 * addresses its purchaser invited. A signature changes the delivered card's page, which the read
 * cache keeps: the database announces every change of a signature on the cache feed's channel, as it
 * does for the card's other rows (migration `ecard_page_changes`), so no write path can forget to.
 */
export class Migration20261126130000_group_cards extends Migration {
  override name = 'Migration20261126130000_group_cards';

  override up(): void | Promise<void> {
    this.addSql(`create table "group_card" (
      "id" serial primary key,
      "item_id" int not null,
      "signing_token" varchar(64) not null,
      "collect_until" timestamptz not null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create unique index "group_card_item_id_unique" on "group_card" ("item_id");`);
    this.addSql(`create unique index "group_card_signing_token_unique" on "group_card" ("signing_token");`);
    this.addSql(`alter table "group_card" add constraint "group_card_item_id_foreign" foreign key ("item_id") references "order_item" ("id") on delete cascade;`);

    this.addSql(`create table "group_card_invitation" (
      "id" serial primary key,
      "group_card_id" int not null,
      "email" varchar(254) not null,
      "code" varchar(32) not null,
      "invited_at" timestamptz not null,
      "signed_at" timestamptz null,
      "reminded_at" timestamptz null);`);
    // Each address is invited once per card.
    this.addSql(`create unique index "group_card_invitation_email_unique" on "group_card_invitation" ("group_card_id", "email");`);
    this.addSql(`create unique index "group_card_invitation_code_unique" on "group_card_invitation" ("code");`);
    this.addSql(`alter table "group_card_invitation" add constraint "group_card_invitation_group_card_id_foreign" foreign key ("group_card_id") references "group_card" ("id") on delete cascade;`);

    this.addSql(`create table "group_card_signature" (
      "id" serial primary key,
      "group_card_id" int not null,
      "name" varchar(100) not null,
      "message" text not null,
      "edit_token_hash" char(64) not null,
      "idempotency_key_hash" char(64) null,
      "client_key_hash" char(64) not null,
      "content_hash" char(64) not null,
      "invitation_id" int null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "group_card_signature_message_length" check (char_length("message") between 1 and 500),
      constraint "group_card_signature_name_length" check (char_length("name") between 1 and 100));`);
    this.addSql(`create index "group_card_signature_card_index" on "group_card_signature" ("group_card_id", "id");`);
    // A signature sent twice (a double click, a retry) is stored once: by its idempotency key, and by
    // the same words from the same client address.
    this.addSql(`create unique index "group_card_signature_idempotency_unique" on "group_card_signature" ("group_card_id", "idempotency_key_hash") where "idempotency_key_hash" is not null;`);
    this.addSql(`create unique index "group_card_signature_content_unique" on "group_card_signature" ("group_card_id", "client_key_hash", "content_hash");`);
    this.addSql(`alter table "group_card_signature" add constraint "group_card_signature_group_card_id_foreign" foreign key ("group_card_id") references "group_card" ("id") on delete cascade;`);
    this.addSql(`alter table "group_card_signature" add constraint "group_card_signature_invitation_id_foreign" foreign key ("invitation_id") references "group_card_invitation" ("id") on delete set null;`);
    this.addSql(`create index "group_card_signature_invitation_index" on "group_card_signature" ("invitation_id") where "invitation_id" is not null;`);

    // The delivered card shows every signature: a signature written, changed or removed drops its page.
    this.addSql(`create function "artsong_group_card_signature_changed"() returns trigger language plpgsql as $$
begin
  perform artsong_ecards_changed(array(
    select distinct i.item_url_uuid from order_item i join group_card g on g.item_id = i.id
    where i.item_url_uuid is not null and g.id in (select group_card_id from changed)));
  return null;
end $$;`);
    this.addSql(`create trigger "group_card_signature_insert" after insert on "group_card_signature" referencing new table as changed for each statement execute function artsong_group_card_signature_changed();`);
    this.addSql(`create trigger "group_card_signature_update" after update on "group_card_signature" referencing new table as changed for each statement execute function artsong_group_card_signature_changed();`);
    this.addSql(`create trigger "group_card_signature_delete" after delete on "group_card_signature" referencing old table as changed for each statement execute function artsong_group_card_signature_changed();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "group_card_signature_delete" on "group_card_signature";`);
    this.addSql(`drop trigger if exists "group_card_signature_update" on "group_card_signature";`);
    this.addSql(`drop trigger if exists "group_card_signature_insert" on "group_card_signature";`);
    this.addSql(`drop function if exists "artsong_group_card_signature_changed"();`);
    this.addSql(`drop table if exists "group_card_signature" cascade;`);
    this.addSql(`drop table if exists "group_card_invitation" cascade;`);
    this.addSql(`drop table if exists "group_card" cascade;`);
  }
}
