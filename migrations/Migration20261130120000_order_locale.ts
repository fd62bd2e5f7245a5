import { Migration } from '@mikro-orm/migrations';

/**
 * The language an order was bought in (contract section 20): its receipt, its cards' e-mails, pages
 * and reminders, and its group cards' invitations speak it. Orders placed before it are English.
 */
export class Migration20261130120000_order_locale extends Migration {

  override name = 'Migration20261130120000_order_locale';

  override up(): void | Promise<void> {
    this.addSql(`alter table "order" add column "locale" varchar(2) not null default 'en' check ("locale" in ('en', 'de', 'fr', 'es'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "order" drop column "locale";`);
  }
}
