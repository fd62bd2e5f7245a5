import { Migration } from '@mikro-orm/migrations';

export class Migration20261125200100_customers_and_partial_refunds extends Migration {

  override name = 'Migration20261125200100_customers_and_partial_refunds';

  override up(): void | Promise<void> {
    // Partial refunds: what was given back of an order, and which of its cards were refunded.
    this.addSql(`alter table "order" drop constraint "order_status_check";`);
    this.addSql(`alter table "order" add constraint "order_status_check" check ("status" in ('pending', 'paid', 'delivered', 'partially_refunded', 'cancelled', 'refunded'));`);
    this.addSql(`alter table "order" add column "refunded_amount" numeric(12,2) not null default 0, add constraint "order_refunded_amount_range" check ("refunded_amount" >= 0 and "refunded_amount" <= "total");`);
    this.addSql(`update "order" set "refunded_amount" = "total" where "status" = 'refunded';`);
    this.addSql(`alter table "order_item" add column "refunded_at" timestamptz null;`);
    // Sales count what the shop kept of each charged order (a partly refunded one too).
    this.addSql(`drop index if exists "order_sales_index";`);
    this.addSql(`create index "order_sales_index" on "order" ("created_at") include ("total", "refunded_amount") where "status" in ('paid', 'delivered', 'partially_refunded');`);
    // A customer's orders, newest first (Customers' details, My orders, the totals below).
    this.addSql(`create index "order_user_newest_index" on "order" ("user_id", "created_at" desc, "id" desc) where "user_id" is not null;`);

    // Customers: each account's orders, what it spent (less refunds) and its last order, kept on the
    // account by the database itself whatever writes the orders, so that the Customers list sorts
    // and pages by any of them through an index at any size.
    this.addSql(`alter table "app_user" add column "orders_count" int not null default 0, add column "total_spent" numeric(12,2) not null default 0, add column "last_order_at" timestamptz null;`);
    this.addSql(`create function "customer_totals_refresh"(customer int) returns void language sql as $$
      update "app_user" u set "orders_count" = t.orders, "total_spent" = t.spent, "last_order_at" = t.last_at
        from (select count(*)::int as orders, coalesce(sum("total" - "refunded_amount"), 0) as spent, max("created_at") as last_at
                from "order" where "user_id" = customer and "status" in ('paid', 'delivered', 'partially_refunded', 'refunded')) t
       where u."id" = customer;
    $$;`);
    this.addSql(`create function "customer_totals_on_order"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old."user_id" is not null then perform "customer_totals_refresh"(old."user_id"); end if;
        if tg_op <> 'DELETE' and new."user_id" is not null and (tg_op = 'INSERT' or new."user_id" is distinct from old."user_id" or new."status" is distinct from old."status" or new."total" is distinct from old."total" or new."refunded_amount" is distinct from old."refunded_amount") then
          perform "customer_totals_refresh"(new."user_id");
        end if;
        return null;
      end;
    $$;`);
    this.addSql(`create trigger "order_customer_totals" after insert or delete or update of "user_id", "status", "total", "refunded_amount" on "order" for each row execute function "customer_totals_on_order"();`);
    this.addSql(`update "app_user" u set "orders_count" = t.orders, "total_spent" = t.spent, "last_order_at" = t.last_at
      from (select "user_id", count(*)::int as orders, coalesce(sum("total" - "refunded_amount"), 0) as spent, max("created_at") as last_at
              from "order" where "user_id" is not null and "status" in ('paid', 'delivered', 'partially_refunded', 'refunded') group by "user_id") t
     where u."id" = t."user_id";`);
    // The Customers list: one index per sort, each ending in the id (the keyset's tie-break; read
    // backwards for a descending sort), and a trigram index for the search by name or e-mail.
    this.addSql(`create index "customer_newest_index" on "app_user" ("created_at", "id") where "role" = 'customer';`);
    this.addSql(`create index "customer_name_index" on "app_user" (lower("username"), "id") where "role" = 'customer';`);
    this.addSql(`create index "customer_email_index" on "app_user" ("email", "id") where "role" = 'customer';`);
    this.addSql(`create index "customer_orders_index" on "app_user" ("orders_count", "id") where "role" = 'customer';`);
    this.addSql(`create index "customer_spent_index" on "app_user" ("total_spent", "id") where "role" = 'customer';`);
    this.addSql(`create index "customer_last_order_index" on "app_user" ((coalesce("last_order_at", '-infinity'::timestamptz)), "id") where "role" = 'customer';`);
    this.addSql(`create index "customer_search_index" on "app_user" using gin ((lower("username") || ' ' || "email") gin_trgm_ops) where "role" = 'customer';`);
  }

  override down(): void | Promise<void> {
    for (const index of ['customer_search_index', 'customer_last_order_index', 'customer_spent_index', 'customer_orders_index', 'customer_email_index', 'customer_name_index', 'customer_newest_index', 'order_user_newest_index']) {
      this.addSql(`drop index if exists "${index}";`);
    }
    this.addSql(`drop trigger if exists "order_customer_totals" on "order";`);
    this.addSql(`drop function if exists "customer_totals_on_order"();`);
    this.addSql(`drop function if exists "customer_totals_refresh"(int);`);
    this.addSql(`alter table "app_user" drop column "orders_count", drop column "total_spent", drop column "last_order_at";`);
    this.addSql(`drop index if exists "order_sales_index";`);
    this.addSql(`create index "order_sales_index" on "order" ("created_at") include ("total") where "status" in ('paid', 'delivered');`);
    this.addSql(`alter table "order_item" drop column "refunded_at";`);
    this.addSql(`alter table "order" drop constraint "order_refunded_amount_range", drop column "refunded_amount";`);
    this.addSql(`alter table "order" drop constraint "order_status_check";`);
    this.addSql(`alter table "order" add constraint "order_status_check" check ("status" in ('pending', 'paid', 'delivered', 'cancelled', 'refunded'));`);
  }
}
