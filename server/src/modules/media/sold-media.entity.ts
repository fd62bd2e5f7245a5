import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A stored file a sold e-card shows (recorded when the order is paid). Its bytes outlive the media
 * library's row: deleting the file or its folder keeps them, and they are still served, so the card
 * keeps working for its recipient.
 */
@Entity({ tableName: 'sold_media' })
export class SoldMedia {
  /** The storage key (`<random>.<ext>`), as served under `/api/uploads/`. */
  @PrimaryKey({ type: 'string', length: 200 })
  key!: string;

  @Property({ type: 'string', length: 100 })
  mimeType!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
