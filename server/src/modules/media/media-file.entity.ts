import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { srcSetOf } from './image-variants.js';
import { MediaKind, kindOfMime } from './media-formats.js';
import { MediaFolder } from './media-folder.entity.js';

/**
 * One stored file: the original under `filePath` and, for images, a WebP thumbnail under
 * `thumbnailPath`. Both paths are `uploads/<random>.<ext>`, never derived from what the client sent.
 *
 * Tables that point at a file (product images, category images, e-card songs, ...) declare their
 * foreign key `ON DELETE SET NULL`, so that deleting a file leaves their reference null.
 */
@ObjectType({ description: 'A file of the media library (an image or a song).' })
@Entity({ tableName: 'media_file' })
@Index({ name: 'media_file_folder_id_id_index', properties: ['folder', 'id'] })
export class MediaFile {
  [OptionalProps]?: 'createdAt' | 'width' | 'height' | 'thumbnailPath' | 'folderId' | 'kind' | 'srcSet';

  @Field(() => Int, { description: "The file's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'The original file name (base name only).' })
  @Property({ type: 'string', length: 255 })
  fileName!: string;

  @Field(() => String, { description: 'Where the bytes are served: load `/api/{filePath}`.' })
  @Property({ type: 'string', length: 255, unique: true })
  filePath!: string;

  @Field(() => String, { description: 'The display name; defaults to the file name.' })
  @Property({ type: 'string', length: 255 })
  friendlyName!: string;

  /** Files go with their folder (ON DELETE CASCADE); the (folder_id, id) index serves the pages. */
  @ManyToOne(() => MediaFolder, { deleteRule: 'cascade' })
  folder!: MediaFolder;

  @Field(() => String, { description: 'The type recognised from the content, e.g. image/png or audio/mpeg.' })
  @Property({ type: 'string', length: 100 })
  mimeType!: string;

  @Field(() => Int, { description: 'Size in bytes.' })
  @Property({ type: 'integer' })
  size!: number;

  @Field(() => Int, { nullable: true, description: 'Image width in pixels (as displayed); null for audio.' })
  @Property({ type: 'integer', nullable: true })
  width: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Image height in pixels (as displayed); null for audio.' })
  @Property({ type: 'integer', nullable: true })
  height: number | null = null;

  @Field(() => String, { nullable: true, description: 'A small WebP (320 px wide) for grids and pickers; null for audio.' })
  @Property({ type: 'string', length: 255, nullable: true, unique: true })
  thumbnailPath: string | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was uploaded.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Field(() => Int, { description: 'The folder it is in.' })
  get folderId(): number {
    return this.folder.id;
  }

  @Field(() => MediaKind, { description: 'IMAGE or AUDIO, from its content type.' })
  get kind(): MediaKind {
    return kindOfMime(this.mimeType);
  }

  @Field(() => String, {
    nullable: true,
    description: 'The responsive sizes of an image as an HTML `srcset` (WebP at a few widths, URLs under /api); null for audio and GIF.',
  })
  get srcSet(): string | null {
    return this.mimeType?.startsWith('image/') ? srcSetOf(this) : null;
  }
}
