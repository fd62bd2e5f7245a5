import { Migration } from '@mikro-orm/migrations';

export class Migration20261125190000_hardening extends Migration {

  override name = 'Migration20261125190000_hardening';

  override up(): void | Promise<void> {
    // How often the purchaser sent a card again from My orders (an admin's resends are not counted).
    this.addSql(`alter table "order_item" add "owner_resends" smallint not null default 0, add constraint "order_item_owner_resends_range" check ("owner_resends" >= 0);`);
    // Cards resent before this count as the purchaser's (their sends were not told apart), up to the three allowed.
    this.addSql(`do $$ begin
      if exists (select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'mail_job' and column_name = 'item_id')
         and exists (select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'mail_job' and column_name = 'kind') then
        update "order_item" i set "owner_resends" = least(3, r.n)
          from (select "item_id", count(*) as n from "mail_job" where "kind"::text = 'card-resend' and "item_id" is not null group by "item_id") r
          where r."item_id" = i."id";
      end if;
    end $$;`);
    // The sweep of abandoned checkouts reads the oldest pending orders.
    this.addSql(`create index "order_pending_created_index" on "order" ("created_at") where "status" = 'pending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "order_pending_created_index";`);
    this.addSql(`alter table "order_item" drop constraint if exists "order_item_owner_resends_range", drop column "owner_resends";`);
  }
}
