import { Migration } from '@mikro-orm/migrations';

/**
 * Languages (contract section 20). The language an order was bought in: its receipt, its cards'
 * e-mails, pages and reminders, and its group cards' invitations speak it. A shopper's language, as
 * the page they last signed up or signed in from spoke it: e-mails sent later without a request
 * (occasion reminders, membership notices) speak it. Both English before.
 */
export class Migration20261130120000_languages extends Migration {

  override name = 'Migration20261130120000_languages';

  override up(): void | Promise<void> {
    this.addSql(`alter table "order" add column "locale" varchar(2) not null default 'en' check ("locale" in ('en', 'de', 'fr', 'es'));`);
    this.addSql(`alter table "app_user" add column "locale" varchar(2) not null default 'en' check ("locale" in ('en', 'de', 'fr', 'es'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column "locale";`);
    this.addSql(`alter table "order" drop column "locale";`);
  }
}
