import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { Connection, ConnectionArgs } from '../../core/pagination.js';
import { MediaFile } from './media-file.entity.js';
import { MediaKind } from './media-formats.js';

export const MediaFileConnection = Connection(MediaFile, 'MediaFile');
export type MediaFileConnection = InstanceType<typeof MediaFileConnection>;

@ArgsType()
export class AllMediaFilesArgs extends ConnectionArgs {
  @Field(() => MediaKind, { nullable: true, description: 'Only images, or only songs.' })
  kind?: MediaKind | null;
}

@ArgsType()
export class MediaFilesArgs extends AllMediaFilesArgs {
  @Field(() => Int, { description: "The folder (its own files, not its subfolders')." })
  folderId!: number;
}

@ObjectType({ description: 'Something that uses a media file (a product image, a category image, an e-card song, ...).' })
export class MediaUsage {
  @Field(() => String, { description: 'What kind of thing uses it, e.g. "product" or "category".' })
  kind!: string;

  @Field(() => Int, { description: 'The id of the thing that uses it, of its `kind` (a product id for "product").' })
  id!: number;

  @Field(() => String, { description: 'A name to show, e.g. the product name.' })
  label!: string;
}

@ObjectType({ description: 'What a folder deletion removed: the folder, its subfolders and their files.' })
export class DeleteMediaFolderPayload {
  @Field(() => [Int], { description: 'The folder and every subfolder below it.' })
  deletedFolderIds!: number[];

  @Field(() => [Int], { description: 'Every file those folders held.' })
  deletedFileIds!: number[];
}
