import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';

/** A folder of the media library. Folders form a tree by `parent`; the client builds it from the flat list. */
@ObjectType({ description: 'A folder of the media library; `parentId` is null for a top-level folder.' })
@Entity({ tableName: 'media_folder' })
export class MediaFolder {
  [OptionalProps]?: 'createdAt' | 'parent' | 'parentId';

  @Field(() => Int, { description: "The folder's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'Its name (1–255 characters).' })
  @Property({ type: 'string', length: 255 })
  name!: string;

  /** Deleting a folder deletes its subfolders (and, through media_file, their files) in the database. */
  @ManyToOne(() => MediaFolder, { nullable: true, deleteRule: 'cascade', index: true })
  parent: MediaFolder | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Field(() => Int, { nullable: true, description: 'The folder it sits in; null for a top-level folder.' })
  get parentId(): number | null {
    return this.parent?.id ?? null;
  }
}
