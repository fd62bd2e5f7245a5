import { Migration } from '@mikro-orm/migrations';

/**
 * A purchased e-card's page is kept in the read cache (gateway/src/routes/ecard-pages.routes.ts) and
 * must go when its card changes: its item (the card, its names and message, its delivery), its
 * order's status (a refund withdraws it), its replies (the thank-you form closes after three). Many
 * features write those rows (checkout, the e-card loop, refunds, deliveries, group cards), so the
 * database itself announces each change on the cache feed's channel (server/src/core/change-feed.ts),
 * once per statement, with the keys of the cards it touched: no write path can forget to.
 * A notification's payload is at most 8000 bytes: the keys go out in chunks of 100.
 */
export class Migration20261125170000_ecard_page_changes extends Migration {
  override name = 'Migration20261125170000_ecard_page_changes';

  override up(): void | Promise<void> {
    this.addSql(`create function "artsong_ecards_changed"(uuids uuid[]) returns void language plpgsql as $$
declare
  chunk uuid[];
  total int := coalesce(cardinality(uuids), 0);
begin
  for i in 1 .. total by 100 loop
    chunk := uuids[i : i + 99];
    perform pg_notify('artsong_cache_changes', json_build_object('keys', (select json_agg('ecard:' || u::text || ':') from unnest(chunk) as u))::text);
  end loop;
end $$;`);

    this.addSql(`create function "artsong_order_item_changed"() returns trigger language plpgsql as $$
begin
  perform artsong_ecards_changed(array(select distinct item_url_uuid from changed where item_url_uuid is not null));
  return null;
end $$;`);
    this.addSql(`create trigger "order_item_ecard_update" after update on "order_item" referencing old table as changed for each statement execute function artsong_order_item_changed();`);
    this.addSql(`create trigger "order_item_ecard_delete" after delete on "order_item" referencing old table as changed for each statement execute function artsong_order_item_changed();`);

    // An order's status decides whether its cards show (paid, delivered) or not (pending, cancelled, refunded).
    this.addSql(`create function "artsong_order_status_changed"() returns trigger language plpgsql as $$
begin
  perform artsong_ecards_changed(array(
    select distinct i.item_url_uuid from order_item i
    where i.item_url_uuid is not null
      and i.order_id in (select n.id from after_rows n join before_rows o on o.id = n.id where n.status is distinct from o.status)));
  return null;
end $$;`);
    this.addSql(`create trigger "order_ecard_status" after update on "order" referencing old table as before_rows new table as after_rows for each statement execute function artsong_order_status_changed();`);

    // A reply closes the thank-you form after the third.
    this.addSql(`create function "artsong_ecard_reply_changed"() returns trigger language plpgsql as $$
begin
  perform artsong_ecards_changed(array(select distinct i.item_url_uuid from order_item i where i.item_url_uuid is not null and i.id in (select item_id from changed)));
  return null;
end $$;`);
    this.addSql(`create trigger "ecard_reply_insert" after insert on "ecard_reply" referencing new table as changed for each statement execute function artsong_ecard_reply_changed();`);
    this.addSql(`create trigger "ecard_reply_delete" after delete on "ecard_reply" referencing old table as changed for each statement execute function artsong_ecard_reply_changed();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "ecard_reply_delete" on "ecard_reply";`);
    this.addSql(`drop trigger if exists "ecard_reply_insert" on "ecard_reply";`);
    this.addSql(`drop trigger if exists "order_ecard_status" on "order";`);
    this.addSql(`drop trigger if exists "order_item_ecard_delete" on "order_item";`);
    this.addSql(`drop trigger if exists "order_item_ecard_update" on "order_item";`);
    this.addSql(`drop function if exists "artsong_ecard_reply_changed"();`);
    this.addSql(`drop function if exists "artsong_order_status_changed"();`);
    this.addSql(`drop function if exists "artsong_order_item_changed"();`);
    this.addSql(`drop function if exists "artsong_ecards_changed"(uuid[]);`);
  }
}
