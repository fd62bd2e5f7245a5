import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A recipient who said no: the SHA-256 digest of the address (trimmed, lower-cased), so that the
 * table is no list of addresses, yet any address can be checked against it.
 */
@Entity({ tableName: 'unsubscribed_address' })
export class UnsubscribedAddress {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'character', length: 64 })
  addressHash!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
