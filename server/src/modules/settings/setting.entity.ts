import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A site-wide setting, stored as text under its key. */
@Entity({ tableName: 'setting' })
export class Setting {
  [OptionalProps]?: 'updatedAt';

  @PrimaryKey({ type: 'string', length: 64 })
  key!: string;

  @Property({ type: 'text' })
  value!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
