import { Migration } from '@mikro-orm/migrations';

/** The columns of `order_item` that no page shows. */
const UNSHOWN = ['opened_at', 'reminded_at', 'owner_resends'].join(',');

const NOTIFY_CHANGED = `  for i in 1 .. total by 100 loop
    chunk := uuids[i : i + 99];
    perform pg_notify('artsong_cache_changes', json_build_object('keys', (select json_agg('ecard:' || u::text || ':') from unnest(chunk) as u))::text);
  end loop;`;

/**
 * A card's page kept drawn in PostgreSQL (the ecard module's `ecard_page`, see ecard-pages.ts), so
 * that a first opening in any process is one indexed read of ready bytes: its ETag, its length and
 * its brotli and gzip forms, with the drawing they came from (`drawing`, a fingerprint of the page's
 * template) and the card's `generation`.
 *
 * The one function every change of a card's rows already calls (`artsong_ecards_changed`: its item,
 * its order's status, its replies, its signatures) now also forgets the card's bytes and moves its
 * generation on, in the writing transaction: a page is never read stale once the change has
 * committed, and a drawing made from the rows as they were before cannot be stored after it (it is
 * stored only at the generation it read). It signals `ecard-pages` so that the processes that run
 * jobs draw the delivered cards' pages again (server/src/modules/ecard/ecard-page-drawer.ts).
 */
export class Migration20261202110000_ecard_page_bytes extends Migration {
  override name = 'Migration20261202110000_ecard_page_bytes';

  override up(): void | Promise<void> {
    this.addSql(`create table "ecard_page" (
      "item_url_uuid" uuid primary key,
      "generation" int not null default 0,
      "drawing" varchar(40) null,
      "etag" varchar(64) null,
      "length" int null,
      "br" bytea null,
      "gzip" bytea null,
      "drawn_at" timestamptz null);`);
    // The pages waiting to be drawn (few at any time): what the drawer reads.
    this.addSql(`create index "ecard_page_waiting_index" on "ecard_page" ("item_url_uuid") where "br" is null;`);

    this.addSql(`create or replace function "artsong_ecards_changed"(uuids uuid[]) returns void language plpgsql as $$
declare
  chunk uuid[];
  total int := coalesce(cardinality(uuids), 0);
begin
  if total = 0 then return; end if;
  insert into ecard_page as p (item_url_uuid)
    select distinct u from unnest(uuids) as u where exists (select 1 from order_item i where i.item_url_uuid = u)
    order by 1
    on conflict (item_url_uuid) do update set generation = p.generation + 1, drawing = null, etag = null, length = null, br = null, gzip = null, drawn_at = null;
  perform pg_notify('artsong_signals', 'ecard-pages');
${NOTIFY_CHANGED}
end $$;`);

    // What a card's row records about it but its page does not show (its opening, its reminder, the
    // purchaser's resends) changes neither its kept bytes nor its page in memory: the page's own
    // report of an opening would otherwise have every first opening draw the page again.
    this.addSql(`create function "artsong_order_item_shown_changed"() returns trigger language plpgsql as $$
begin
  perform artsong_ecards_changed(array(
    select distinct u from (
      select o.item_url_uuid as old_uuid, n.item_url_uuid as new_uuid from changed o join after_rows n on n.id = o.id
      where (to_jsonb(o) - '{${UNSHOWN}}'::text[]) is distinct from (to_jsonb(n) - '{${UNSHOWN}}'::text[])) as c
    cross join lateral (values (c.old_uuid), (c.new_uuid)) as v(u)
    where u is not null));
  return null;
end $$;`);
    this.addSql(`drop trigger "order_item_ecard_update" on "order_item";`);
    this.addSql(`create trigger "order_item_ecard_update" after update on "order_item" referencing old table as changed new table as after_rows for each statement execute function artsong_order_item_shown_changed();`);

    // The cards delivered before: their pages are drawn after the next start.
    this.addSql(`insert into "ecard_page" ("item_url_uuid") select "item_url_uuid" from "order_item" where "item_url_uuid" is not null and "delivered_at" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create or replace function "artsong_ecards_changed"(uuids uuid[]) returns void language plpgsql as $$
declare
  chunk uuid[];
  total int := coalesce(cardinality(uuids), 0);
begin
${NOTIFY_CHANGED}
end $$;`);
    this.addSql(`drop trigger "order_item_ecard_update" on "order_item";`);
    this.addSql(`create trigger "order_item_ecard_update" after update on "order_item" referencing old table as changed for each statement execute function artsong_order_item_changed();`);
    this.addSql(`drop function "artsong_order_item_shown_changed"();`);
    this.addSql(`drop table if exists "ecard_page";`);
  }
}
