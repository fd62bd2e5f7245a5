import { Migration } from '@mikro-orm/migrations';

/**
 * Product pages drawn in the background and kept where every process can read them (see
 * server/src/modules/catalogue/product-pages.ts). A page: per product, theme and language, its
 * compressed bytes (br and gzip), its ETag and plain length, the build of the client it was drawn
 * with, and the stamp taken before it was drawn. A stamp: per product (0: every product), the stamp
 * of its last change; a page drawn before it is never read. Work: the pages to draw, each with the
 * stamp of the change that asked for it, claimed by the drawing processes with FOR UPDATE SKIP LOCKED
 * (a claim is a lease: a dead process's claims fall due again by themselves).
 */
export class Migration20261202130000_product_pages extends Migration {

  override name = 'Migration20261202130000_product_pages';

  override up(): void | Promise<void> {
    this.addSql(`create sequence "product_page_stamp_seq";`);
    this.addSql(`create table "product_page" (
      "product_id" integer not null,
      "theme" varchar(8) not null,
      "locale" varchar(2) not null,
      "build" varchar(40) not null,
      "drawn_from" bigint not null,
      "drawn_at" timestamptz not null default now(),
      "etag" varchar(64) not null,
      "length" integer not null,
      "br" bytea not null,
      "gzip" bytea not null,
      constraint "product_page_pkey" primary key ("product_id", "theme", "locale"));`);
    this.addSql(`create table "product_page_stamp" (
      "product_id" integer primary key,
      "changed" bigint not null);`);
    this.addSql(`create table "product_page_work" (
      "product_id" integer not null,
      "theme" varchar(8) not null,
      "locale" varchar(2) not null,
      "queued" bigint not null,
      "claimed_until" timestamptz null,
      constraint "product_page_work_pkey" primary key ("product_id", "theme", "locale"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "product_page_work";`);
    this.addSql(`drop table if exists "product_page_stamp";`);
    this.addSql(`drop table if exists "product_page";`);
    this.addSql(`drop sequence if exists "product_page_stamp_seq";`);
  }
}
