import { Migration } from '@mikro-orm/migrations';

/**
 * Gift cards (contract section 18): a balance in the shop's currency, known by a 16-character code of
 * which only a digest and the last four characters are kept, and the ledger of every change to it
 * (issued, spent by an order, given back, adjusted, voided) with who made it and why. The balance is
 * kept on the card and changed only by statements that write a ledger row beside it, never below 0.
 * An order records what a gift card paid of it; the ledger names the order by its id (no foreign
 * key: the orders are another module's).
 */
export class Migration20261129100000_gift_cards extends Migration {

  override name = 'Migration20261129100000_gift_cards';

  override up(): void | Promise<void> {
    this.addSql(`create table "gift_card" (
      "id" serial primary key,
      "code_digest" char(64) not null,
      "last4" char(4) not null,
      "initial_amount" numeric(12,2) not null check ("initial_amount" > 0),
      "balance" numeric(12,2) not null check ("balance" >= 0),
      "currency" char(3) not null default 'USD',
      "status" text not null default 'active' check ("status" in ('active', 'voided')),
      "source" text not null check ("source" in ('issued', 'purchased')),
      "reason" text null,
      "recipient_email" varchar(254) null,
      "order_id" uuid null,
      "expires_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "gift_card_code_digest_unique" unique ("code_digest")
    );`);
    this.addSql(`create index "gift_card_newest_index" on "gift_card" ("created_at" desc, "id" desc);`);
    // The outstanding balance (the shop's liability) sums the cards that still hold money.
    this.addSql(`create index "gift_card_outstanding_index" on "gift_card" ("id") include ("balance") where "status" = 'active' and "balance" > 0;`);
    this.addSql(`create table "gift_card_entry" (
      "id" bigserial primary key,
      "gift_card_id" integer not null references "gift_card" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('issued', 'redeemed', 'released', 'refunded', 'adjusted', 'voided')),
      "amount" numeric(12,2) not null,
      "balance_after" numeric(12,2) not null check ("balance_after" >= 0),
      "order_id" uuid null,
      "reason" text null,
      "actor" varchar(120) null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "gift_card_entry_card_index" on "gift_card_entry" ("gift_card_id", "id");`);
    this.addSql(`create index "gift_card_entry_order_index" on "gift_card_entry" ("order_id") where "order_id" is not null;`);
    this.addSql(`alter table "order" add column "gift_card_amount" numeric(12,2) not null default 0 check ("gift_card_amount" >= 0), add column "gift_card_last4" char(4) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "order" drop column if exists "gift_card_last4", drop column if exists "gift_card_amount";`);
    this.addSql(`drop table if exists "gift_card_entry";`);
    this.addSql(`drop table if exists "gift_card";`);
  }

}
