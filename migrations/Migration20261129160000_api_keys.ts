import { Migration } from '@mikro-orm/migrations';

/**
 * API keys (contract section 19): a name, scopes, the SHA-256 of the key and its last four
 * characters (the key itself is shown once and kept nowhere), who created it, when it was last used
 * (written at most once a minute per process) and when it was revoked. A key is found by its digest
 * on every request that carries one.
 */
export class Migration20261129160000_api_keys extends Migration {

  override name = 'Migration20261129160000_api_keys';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_key" (
      "id" serial primary key,
      "name" varchar(100) not null,
      "scopes" text[] not null check (cardinality("scopes") > 0 and "scopes" <@ array['catalogue:read', 'catalogue:write', 'orders:read', 'orders:write', 'customers:read']::text[]),
      "key_digest" char(64) not null,
      "last4" char(4) not null,
      "created_by" varchar(32) null,
      "created_at" timestamptz not null default now(),
      "last_used_at" timestamptz null,
      "revoked_at" timestamptz null
    );`);
    this.addSql(`create unique index "api_key_digest_unique" on "api_key" ("key_digest");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_key";`);
  }
}
