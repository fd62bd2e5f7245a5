import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { MediaService } from './media.service.js';
import { MediaFolder } from './media-folder.entity.js';
import { DeleteMediaFolderPayload } from './media.types.js';

@Resolver(() => MediaFolder)
export class MediaFolderResolver {
  constructor(private readonly service: MediaService) {}

  @Allow('admin')
  @Query(() => [MediaFolder], { description: 'Every media folder, as a flat list: build the tree from `parentId`.' })
  mediaFolders(@Ctx() ctx: RequestContext): Promise<MediaFolder[]> {
    return this.service.listFolders(ctx);
  }

  @Allow('admin')
  @Mutation(() => MediaFolder, { description: 'Creates a folder; without `parentId` it is a top-level folder.' })
  createMediaFolder(
    @Ctx() ctx: RequestContext,
    @Arg('name', () => String, { description: 'Its name, 1–255 characters.' }) name: string,
    @Arg('parentId', () => Int, { nullable: true, description: 'The folder it goes in; null or left out for the top level.' }) parentId?: number | null,
  ): Promise<MediaFolder> {
    return this.service.createFolder(ctx, { name, parentId });
  }

  @Allow('admin')
  @Mutation(() => MediaFolder, { description: 'Renames a folder.' })
  renameMediaFolder(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The folder's id." }) id: number,
    @Arg('name', () => String, { description: 'Its new name, 1–255 characters.' }) name: string,
  ): Promise<MediaFolder> {
    return this.service.updateFolder(ctx, id, { name });
  }

  @Allow('admin')
  @Mutation(() => MediaFolder, { description: 'Moves a folder under another (null: to the top level); moving it into its own subtree is refused.' })
  moveMediaFolder(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The folder's id." }) id: number,
    @Arg('parentId', () => Int, { nullable: true, description: 'The folder it goes in; null or left out for the top level.' }) parentId?: number | null,
  ): Promise<MediaFolder> {
    return this.service.updateFolder(ctx, id, { parentId: parentId ?? null });
  }

  @Allow('admin')
  @Mutation(() => DeleteMediaFolderPayload, { description: 'Deletes a folder with its subfolders and all their files.' })
  deleteMediaFolder(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The folder's id." }) id: number): Promise<DeleteMediaFolderPayload> {
    return this.service.deleteFolder(ctx, id);
  }
}
