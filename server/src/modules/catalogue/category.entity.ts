import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { MediaFile } from '../media/index.js';

/** A node of the category tree; deleting one removes its subcategories (and their products). */
@ObjectType({ description: 'A category of the shop; the tree is built from `parentId`.' })
@Entity({ tableName: 'category' })
export class Category {
  [OptionalProps]?: 'createdAt' | 'parent' | 'media';

  @Field(() => Int, { description: "The category's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'Its name (1–200 characters).' })
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Index({ name: 'category_parent_id_index' })
  @ManyToOne(() => Category, { nullable: true, deleteRule: 'cascade' })
  parent: Category | null = null;

  /** Its image; deleting the file leaves the category without one. */
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null' })
  media: MediaFile | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Field(() => Int, { nullable: true, description: 'Null for a top-level category.' })
  get parentId(): number | null {
    return this.parent?.id ?? null;
  }

  @Field(() => Int, { nullable: true, description: 'The image, a file of the media library.' })
  get mediaId(): number | null {
    return this.media?.id ?? null;
  }
}
