import { Migration } from '@mikro-orm/migrations';

/** Orders whose payment went through: what Sales counts. */
const CHARGED = `('paid', 'delivered', 'partially_refunded', 'refunded')`;
/** Orders some of whose lines stand (a wholly refunded order has every line refunded). */
const SOLD = `('paid', 'delivered', 'partially_refunded')`;
/** A line's revenue: its share of what its order was charged (a discount spread over the lines, as refunds do). */
const LINE_SHARE = `i."price" * i."quantity" * o."total" / nullif(o."total" + o."discount_amount", 0)`;

/**
 * Sales over ranges of up to a year read sums kept per hour and per product and day instead of every
 * order of the range (a year of a busy shop is ~100,000 orders twice over, with the previous range:
 * far too many rows to add up for each view of the screen).
 * - `sales_hour`: per UTC hour, the charged orders placed in it (gross, refunds, how many, how many
 *   not wholly refunded) and the cards sent and first opened in it. Days of any time zone whose
 *   offset is whole hours are whole hours; the service reads the orders of the other hours itself.
 * - `sales_product_day`: per UTC day and product, the units and revenue of lines not refunded.
 * - `sales_change`: the instants whose hour must be counted again. Triggers on "order" and
 *   "order_item" only append to it (no row is updated in the write's transaction, so checkouts and
 *   deliveries never wait on each other for a hot hour's sums); `sales_rollup_refresh()`, called by
 *   Sales before it reads, takes the instants and counts their hours and days again from the orders.
 */
export class Migration20261128110000_sales_ranges extends Migration {

  override name = 'Migration20261128110000_sales_ranges';

  override up(): void | Promise<void> {
    // An append-only list, emptied by each refresh: no key; its index finds the hours listed one by one.
    this.addSql(`create table "sales_change" ("at" timestamptz not null);`);
    this.addSql(`create index "sales_change_at_index" on "sales_change" ("at");`);
    this.addSql(`create table "sales_hour" ("hour" timestamptz primary key, "gross" numeric(14,2) not null, "refunds" numeric(14,2) not null, "orders" int not null, "kept" int not null, "sent" int not null, "opened" int not null);`);
    this.addSql(`create table "sales_product_day" ("day" timestamptz not null, "product_id" int null, "name" varchar(200) not null, "units" int not null, "revenue" numeric not null);`);
    this.addSql(`create index "sales_product_day_day_index" on "sales_product_day" ("day") include ("product_id", "name", "units", "revenue");`);
    // The name a product was last sold under.
    this.addSql(`create index "sales_product_day_product_index" on "sales_product_day" ("product_id", "day") include ("name");`);

    this.addSql(`create function "sales_change_of_order"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old."status" in ${CHARGED} then insert into "sales_change" values (old."created_at"); end if;
        if tg_op <> 'DELETE' and new."status" in ${CHARGED} then insert into "sales_change" values (new."created_at"); end if;
        return null;
      end;
    $$;`);
    this.addSql(`create trigger "order_sales_change" after insert or delete or update of "status", "total", "refunded_amount", "discount_amount", "created_at" on "order" for each row execute function "sales_change_of_order"();`);

    // A line counts for its order's hour (sales of products) and for the hours its card went out and was opened.
    this.addSql(`create function "sales_change_of_item"() returns trigger language plpgsql as $$
      declare
        line "order_item";
        placed timestamptz;
      begin
        if tg_op = 'DELETE' then line := old; else line := new; end if;
        if tg_op <> 'UPDATE' or (old."refunded_at", old."price", old."quantity", old."product_id", old."name") is distinct from (new."refunded_at", new."price", new."quantity", new."product_id", new."name") then
          select "created_at" into placed from "order" where "id" = line."order_id" and "status" in ${CHARGED};
          if placed is not null then insert into "sales_change" values (placed); end if;
        end if;
        if tg_op <> 'INSERT' then
          if old."delivered_at" is not null and (tg_op = 'DELETE' or new."delivered_at" is distinct from old."delivered_at") then insert into "sales_change" values (old."delivered_at"); end if;
          if old."opened_at" is not null and (tg_op = 'DELETE' or new."opened_at" is distinct from old."opened_at") then insert into "sales_change" values (old."opened_at"); end if;
        end if;
        if tg_op <> 'DELETE' then
          if new."delivered_at" is not null and (tg_op = 'INSERT' or new."delivered_at" is distinct from old."delivered_at") then insert into "sales_change" values (new."delivered_at"); end if;
          if new."opened_at" is not null and (tg_op = 'INSERT' or new."opened_at" is distinct from old."opened_at") then insert into "sales_change" values (new."opened_at"); end if;
        end if;
        return null;
      end;
    $$;`);
    this.addSql(`create trigger "order_item_sales_change" after insert or delete or update of "delivered_at", "opened_at", "refunded_at", "price", "quantity", "product_id", "name" on "order_item" for each row execute function "sales_change_of_item"();`);

    // One refresh at a time (a transaction-scoped advisory lock): each counts again from what is
    // committed once it holds the lock, so a slower refresh that read earlier can never write last.
    // It takes the earliest hours listed, at most 500 of them within 7 days (the days' products are
    // counted again whole, so a busy week bounds the work), found one after the other through the
    // index (each the first instant past the hour before): a mass change is counted over several
    // calls, each well within the statement timeout. It answers whether some are left. An instant listed while it
    // runs stays for the next call unless its hour is among those counted now.
    this.addSql(`create function "sales_rollup_refresh"() returns boolean language plpgsql as $$
      declare
        hours timestamptz[];
        days timestamptz[];
      begin
        perform pg_advisory_xact_lock(hashtext('sales_rollup_refresh'));
        with recursive listed(h, n, until) as (
          select date_trunc('hour', min("at"), 'UTC'), 1, date_trunc('day', min("at"), 'UTC') + interval '7 days' from "sales_change"
          union all
          select (select date_trunc('hour', min(c."at"), 'UTC') from "sales_change" c where c."at" >= l.h + interval '1 hour'), l.n + 1, l.until
            from listed l where l.h < l.until and l.n < 500
        )
        select array_agg(h order by h) into hours from listed where h < until;
        if hours is null then return false; end if;
        delete from "sales_change" c using unnest(hours) as s(h) where c."at" >= s.h and c."at" < s.h + interval '1 hour';
        delete from "sales_hour" where "hour" = any(hours);
        insert into "sales_hour" ("hour", "gross", "refunds", "orders", "kept", "sent", "opened")
          select h, sum(gross), sum(refunds), sum(orders), sum(kept), sum(sent), sum(opened) from (
            select s.h, o."total" as gross, o."refunded_amount" as refunds, 1 as orders, (o."status" <> 'refunded')::int as kept, 0 as sent, 0 as opened
              from unnest(hours) as s(h) join "order" o on o."created_at" >= s.h and o."created_at" < s.h + interval '1 hour'
             where o."status" in ${CHARGED}
            union all
            select s.h, 0, 0, 0, 0, 1, 0 from unnest(hours) as s(h) join "order_item" i on i."delivered_at" >= s.h and i."delivered_at" < s.h + interval '1 hour'
            union all
            select s.h, 0, 0, 0, 0, 0, 1 from unnest(hours) as s(h) join "order_item" i on i."opened_at" >= s.h and i."opened_at" < s.h + interval '1 hour'
          ) as t group by h;
        days := array(select distinct date_trunc('day', h, 'UTC') from unnest(hours) as h);
        delete from "sales_product_day" where "day" = any(days);
        insert into "sales_product_day" ("day", "product_id", "name", "units", "revenue")
          select s.d, i."product_id", (array_agg(i."name" order by i."id" desc))[1], sum(i."quantity"), coalesce(sum(${LINE_SHARE}), 0)
            from unnest(days) as s(d) join "order" o on o."created_at" >= s.d and o."created_at" < s.d + interval '1 day'
            join "order_item" i on i."order_id" = o."id"
           where o."status" in ${SOLD} and i."refunded_at" is null
           group by s.d, i."product_id", case when i."product_id" is null then i."name" end;
        return exists (select 1 from "sales_change");
      end;
    $$;`);

    // The shop's sales so far, counted in one pass each.
    this.addSql(`insert into "sales_hour" ("hour", "gross", "refunds", "orders", "kept", "sent", "opened")
      select h, sum(gross), sum(refunds), sum(orders), sum(kept), sum(sent), sum(opened) from (
        select date_trunc('hour', "created_at", 'UTC') as h, "total" as gross, "refunded_amount" as refunds, 1 as orders, ("status" <> 'refunded')::int as kept, 0 as sent, 0 as opened from "order" where "status" in ${CHARGED}
        union all select date_trunc('hour', "delivered_at", 'UTC'), 0, 0, 0, 0, 1, 0 from "order_item" where "delivered_at" is not null
        union all select date_trunc('hour', "opened_at", 'UTC'), 0, 0, 0, 0, 0, 1 from "order_item" where "opened_at" is not null
      ) as t group by h;`);
    this.addSql(`insert into "sales_product_day" ("day", "product_id", "name", "units", "revenue")
      select date_trunc('day', o."created_at", 'UTC'), i."product_id", (array_agg(i."name" order by i."id" desc))[1], sum(i."quantity"), coalesce(sum(${LINE_SHARE}), 0)
        from "order" o join "order_item" i on i."order_id" = o."id"
       where o."status" in ${SOLD} and i."refunded_at" is null
       group by 1, i."product_id", case when i."product_id" is null then i."name" end;`);
    // Sales no longer read the orders' own index of charged orders.
    this.addSql(`drop index if exists "order_sales_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "order_sales_index" on "order" ("created_at") include ("total", "refunded_amount") where "status" in ('paid', 'delivered', 'partially_refunded');`);
    this.addSql(`drop trigger if exists "order_item_sales_change" on "order_item";`);
    this.addSql(`drop trigger if exists "order_sales_change" on "order";`);
    this.addSql(`drop function if exists "sales_rollup_refresh"();`);
    this.addSql(`drop function if exists "sales_change_of_item"();`);
    this.addSql(`drop function if exists "sales_change_of_order"();`);
    this.addSql(`drop table if exists "sales_product_day";`);
    this.addSql(`drop table if exists "sales_hour";`);
    this.addSql(`drop table if exists "sales_change";`);
  }

}
