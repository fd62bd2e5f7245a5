import { Migration } from '@mikro-orm/migrations';

/**
 * The leases a worker renews are found by their claim token: without an index every renewal read
 * the whole queue (every e-mail the shop ever sent). Only jobs being sent are in it.
 */
export class Migration20261126140000_mail_claim_token extends Migration {

  override name = 'Migration20261126140000_mail_claim_token';

  override up(): void | Promise<void> {
    this.addSql(`create index "mail_job_claim_token_index" on "mail_job" ("claim_token") where "status" = 'sending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "mail_job_claim_token_index";`);
  }

}
