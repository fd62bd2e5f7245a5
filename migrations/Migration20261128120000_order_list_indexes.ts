import { Migration } from '@mikro-orm/migrations';

/**
 * The console's orders list at scale (contract section 16): a status filter (and its count) reads an
 * index in the list's order instead of every order, and "has a failed e-mail" reads the few failed
 * e-mails instead of the whole mail queue.
 */
export class Migration20261128120000_order_list_indexes extends Migration {

  override name = 'Migration20261128120000_order_list_indexes';

  override up(): void | Promise<void> {
    this.addSql(`create index "order_status_newest_index" on "order" ("status", "created_at" desc, "id" desc);`);
    this.addSql(`create index "mail_job_failed_subject_index" on "mail_job" ("subject") where "status" = 'failed';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "order_status_newest_index";`);
    this.addSql(`drop index if exists "mail_job_failed_subject_index";`);
  }

}
