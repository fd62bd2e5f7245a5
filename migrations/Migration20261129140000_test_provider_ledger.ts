import { Migration } from '@mikro-orm/migrations';

/**
 * The test payment provider's own ledger: the outcome of each subscription charge by its idempotency
 * key, as an outside payment service keeps it whatever becomes of the shop's processes (a process
 * killed between the charge and its own commit leaves the next one to get the same answer). The shop
 * never joins it: only the test provider reads and writes it, each time in a statement of its own.
 */
export class Migration20261129140000_test_provider_ledger extends Migration {

  override name = 'Migration20261129140000_test_provider_ledger';

  override up(): void | Promise<void> {
    this.addSql(`create table "test_provider_ledger" (
      "idempotency_key" varchar(200) primary key,
      "operation" text not null check ("operation" in ('subscription-start', 'subscription-renew')),
      "outcome" jsonb not null,
      "created_at" timestamptz not null default now()
    );`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "test_provider_ledger";`);
  }

}
