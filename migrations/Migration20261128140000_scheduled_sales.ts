import { Migration } from '@mikro-orm/migrations';

/**
 * Scheduled sales (contract section 17): a percentage or an amount off products and categories (with
 * their subcategories) from `starts_at` until `ends_at`.
 *
 * The rule of a sale price lives here, once: `running_sale_price` answers the lowest price the sales
 * running at a moment give a product (checkout asks it for the moment an order is placed). Reads of
 * the shop do not evaluate it row by row: each product keeps the price of the sales running at the
 * moment recorded in `sale_clock` (`sale_price`, and `shop_price` / `shop_compare_at` generated from
 * it), which `refresh_sale_prices` moves forward when a sale starts or ends or is written. A product
 * written meanwhile (its price, its category) is priced by a trigger at that same moment, and a
 * category moved under or out of a sale's category refreshes the products below it.
 */
export class Migration20261128140000_scheduled_sales extends Migration {

  override name = 'Migration20261128140000_scheduled_sales';

  override up(): void | Promise<void> {
    this.addSql(`create table "sale" (
      "id" serial primary key,
      "name" varchar(120) not null,
      "percent_off" integer null check ("percent_off" between 1 and 90),
      "amount_off" numeric(12,2) null check ("amount_off" > 0),
      "starts_at" timestamptz not null,
      "ends_at" timestamptz not null,
      "banner" varchar(200) null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "sale_one_kind_of_off" check (("percent_off" is null) <> ("amount_off" is null)),
      constraint "sale_ends_after_start" check ("ends_at" > "starts_at"));`);
    this.addSql(`create index "sale_starts_at_index" on "sale" ("starts_at");`);
    this.addSql(`create index "sale_ends_at_index" on "sale" ("ends_at");`);
    this.addSql(`create table "sale_product" (
      "sale_id" integer not null references "sale" ("id") on delete cascade,
      "product_id" integer not null references "product" ("id") on delete cascade,
      primary key ("sale_id", "product_id"));`);
    this.addSql(`create index "sale_product_product_id_index" on "sale_product" ("product_id");`);
    this.addSql(`create table "sale_category" (
      "sale_id" integer not null references "sale" ("id") on delete cascade,
      "category_id" integer not null references "category" ("id") on delete cascade,
      primary key ("sale_id", "category_id"));`);
    this.addSql(`create index "sale_category_category_id_index" on "sale_category" ("category_id");`);

    // The moment the products' sale prices are as of (one row).
    this.addSql(`create table "sale_clock" ("id" boolean primary key default true check ("id"), "at" timestamptz not null);`);
    this.addSql(`insert into "sale_clock" ("id", "at") values (true, now());`);

    this.addSql(`alter table "product" add column "sale_price" numeric(12,2) null, add column "sale_id" integer null references "sale" ("id") on delete set null;`);
    this.addSql(`alter table "product" add column "shop_price" numeric(12,2) generated always as (coalesce("sale_price", "price")) stored;`);
    this.addSql(`alter table "product" add column "shop_compare_at" numeric(12,2) generated always as (case when "sale_price" is not null then "price" else "compare_at_price" end) stored;`);
    this.addSql(`alter table "product" add constraint "product_sale_below_price" check ("sale_price" is null or ("sale_price" >= 0.01 and "sale_price" < "price"));`);
    this.addSql(`create index "product_shop_price_sort_index" on "product" ("shop_price", "id");`);
    this.addSql(`create index "product_shop_on_sale_index" on "product" ("shop_price", "id") where "shop_compare_at" is not null;`);
    this.addSql(`create index "product_sale_price_index" on "product" ("id") where "sale_price" is not null;`);

    // A sale's price of a product: a percentage rounded to the cent (half away from zero), or an amount off; never below 0.01.
    this.addSql(`create function "sale_price_of"(price numeric, percent_off integer, amount_off numeric) returns numeric
      language sql immutable parallel safe as $$
        select greatest(0.01, case when sale_price_of.percent_off is not null then round(sale_price_of.price * (100 - sale_price_of.percent_off) / 100, 2) else sale_price_of.price - sale_price_of.amount_off end)::numeric(12,2)
      $$;`);
    // A category and the ones above it.
    this.addSql(`create function "category_lineage"(category_id integer) returns integer[]
      language sql stable parallel safe as $$
        with recursive up ("id", "parent_id") as (
          select "id", "parent_id" from "category" where "id" = category_lineage.category_id
          union all
          select c."id", c."parent_id" from "category" c join up on c."id" = up."parent_id")
        select coalesce(array_agg("id"), '{}') from up
      $$;`);
    // The lowest price the sales running at "at" give a product (null: none runs, or none lowers it), and that sale.
    this.addSql(`create function "running_sale_price"(product_id integer, category_id integer, price numeric, at timestamptz, out sale_price numeric, out sale_id integer)
      language sql stable parallel safe as $$
        select o.price, o.id from (
          select "sale_price_of"(running_sale_price.price, s."percent_off", s."amount_off") as price, s."id"
            from "sale" s
           where s."starts_at" <= running_sale_price.at and s."ends_at" > running_sale_price.at
             and (exists (select 1 from "sale_product" sp where sp."sale_id" = s."id" and sp."product_id" = running_sale_price.product_id)
               or exists (select 1 from "sale_category" sc where sc."sale_id" = s."id" and sc."category_id" = any ("category_lineage"(running_sale_price.category_id))))) o
         where o.price < running_sale_price.price
         order by o.price, o.id
         limit 1
      $$;`);
    // Moves the products' sale prices to the sales running at "at"; answers the products whose price changed.
    this.addSql(`create function "refresh_sale_prices"(at timestamptz) returns table (changed_id integer, changed_category_id integer)
      language sql volatile as $$
        update "sale_clock" set "at" = refresh_sale_prices.at;
        with recursive running as (
          select "id" from "sale" where "starts_at" <= refresh_sale_prices.at and "ends_at" > refresh_sale_prices.at),
        below ("id") as (
          select sc."category_id" from "sale_category" sc join running r on r."id" = sc."sale_id"
          union
          select c."id" from "category" c join below b on c."parent_id" = b."id"),
        candidates as (
          select "id" from "product" where "sale_price" is not null
          union
          select sp."product_id" from "sale_product" sp join running r on r."id" = sp."sale_id"
          union
          select p."id" from "product" p join below b on p."category_id" = b."id"),
        priced as (
          select p."id", rs."sale_price", rs."sale_id"
            from "product" p join candidates c on c."id" = p."id"
            left join lateral "running_sale_price"(p."id", p."category_id", p."price", refresh_sale_prices.at) rs on true)
        update "product" p set "sale_price" = priced."sale_price", "sale_id" = priced."sale_id"
          from priced
         where p."id" = priced."id" and (p."sale_price" is distinct from priced."sale_price" or p."sale_id" is distinct from priced."sale_id")
        returning p."id", p."category_id";
      $$;`);
    // A product's price or category written: its sale price as of the sale clock.
    this.addSql(`create function "product_sale_price_trigger"() returns trigger language plpgsql as $$
      declare
        found record;
      begin
        select * into found from "running_sale_price"(new."id", new."category_id", new."price", (select "at" from "sale_clock"));
        new."sale_price" := found.sale_price;
        new."sale_id" := found.sale_id;
        return new;
      end $$;`);
    this.addSql(`create trigger "product_sale_price" before insert or update of "price", "category_id" on "product"
      for each row execute function "product_sale_price_trigger"();`);
    // A category moved: the products below it may have come under a sale's category or left one.
    this.addSql(`create function "category_moved_trigger"() returns trigger language plpgsql as $$
      begin
        perform "refresh_sale_prices"((select "at" from "sale_clock"));
        return null;
      end $$;`);
    this.addSql(`create trigger "category_moved" after update of "parent_id" on "category"
      for each statement execute function "category_moved_trigger"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "category_moved" on "category";`);
    this.addSql(`drop function if exists "category_moved_trigger"();`);
    this.addSql(`drop trigger if exists "product_sale_price" on "product";`);
    this.addSql(`drop function if exists "product_sale_price_trigger"();`);
    this.addSql(`drop function if exists "refresh_sale_prices"(timestamptz);`);
    this.addSql(`drop function if exists "running_sale_price"(integer, integer, numeric, timestamptz);`);
    this.addSql(`drop function if exists "category_lineage"(integer);`);
    this.addSql(`drop function if exists "sale_price_of"(numeric, integer, numeric);`);
    this.addSql(`alter table "product" drop column if exists "shop_compare_at", drop column if exists "shop_price", drop column if exists "sale_id", drop column if exists "sale_price";`);
    this.addSql(`drop table if exists "sale_clock";`);
    this.addSql(`drop table if exists "sale_category";`);
    this.addSql(`drop table if exists "sale_product";`);
    this.addSql(`drop table if exists "sale";`);
  }

}
