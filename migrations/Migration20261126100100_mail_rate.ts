import { Migration } from '@mikro-orm/migrations';

/**
 * MAIL_MAX_PER_SECOND across every process (contract section 10): the send slots of each second are
 * handed out by the database. `mail_rate_reserve(cap, want, window_ms)` gives up to `want` send times
 * (milliseconds since the epoch, the database's clock), at most `cap` in any second, spread evenly
 * over the first `window_ms` of the second (the rest of the second is a margin for the time a send
 * takes), never in the past. One advisory lock makes concurrent reservations take turns; a slot
 * reserved and not used is simply lost (the rate stays under the cap).
 */
export class Migration20261126100100_mail_rate extends Migration {

  override name = 'Migration20261126100100_mail_rate';

  override up(): void | Promise<void> {
    this.addSql(`create table "mail_rate_second" ("second" bigint primary key, "used" int not null);`);
    this.addSql(`create function "mail_rate_reserve"(cap int, want int, window_ms int) returns table (at_ms bigint, db_now_ms bigint) language plpgsql as $$
      declare
        now_ms bigint;
        s bigint;
        got int := 0;
        i int;
        first_free int;
      begin
        perform pg_advisory_xact_lock(hashtext('mail_rate_reserve'));
        -- The time once the lock is ours (a reservation may have waited for another).
        now_ms := floor(extract(epoch from clock_timestamp()) * 1000);
        s := now_ms / 1000;
        delete from mail_rate_second where second < s - 10;
        while got < want and s < now_ms / 1000 + 120 loop
          select used into i from mail_rate_second where second = s;
          i := coalesce(i, 0);
          -- Slots of the current second already behind us are gone.
          first_free := ceil(greatest(0, now_ms - s * 1000)::numeric * cap / window_ms)::int;
          i := greatest(i, first_free);
          while i < cap and got < want loop
            at_ms := s * 1000 + (i::bigint * window_ms) / cap;
            db_now_ms := now_ms;
            return next;
            i := i + 1;
            got := got + 1;
          end loop;
          insert into mail_rate_second (second, used) values (s, least(i, cap)) on conflict (second) do update set used = excluded.used;
          s := s + 1;
        end loop;
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "mail_rate_reserve"(int, int, int);`);
    this.addSql(`drop table if exists "mail_rate_second";`);
  }
}
