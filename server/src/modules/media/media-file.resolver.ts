import GraphQLUpload from 'graphql-upload/GraphQLUpload.mjs';
import type { FileUpload } from 'graphql-upload/processRequest.mjs';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { forbidden } from '../../core/errors.js';
import type { MediaService } from './media.service.js';
import { MediaFile } from './media-file.entity.js';
import { uploadErrorToAppError, type IncomingUpload } from './media-upload.js';
import { AllMediaFilesArgs, MediaFileConnection, MediaFilesArgs, MediaUsage } from './media.types.js';

@Resolver(() => MediaFile)
export class MediaFileResolver {
  constructor(private readonly service: MediaService) {}

  @Allow('admin')
  @Query(() => MediaFileConnection, { description: "A page of a folder's files, oldest first." })
  mediaFiles(@Ctx() ctx: RequestContext, @Args(() => MediaFilesArgs) { folderId, ...page }: MediaFilesArgs): Promise<MediaFileConnection> {
    return this.service.folderFiles(ctx, folderId, page);
  }

  @Allow('admin')
  @Query(() => MediaFileConnection, { description: 'A page of all files of the library, oldest first.' })
  allMediaFiles(@Ctx() ctx: RequestContext, @Args(() => AllMediaFilesArgs) page: AllMediaFilesArgs): Promise<MediaFileConnection> {
    return this.service.allFiles(ctx, page);
  }

  @Allow('admin')
  @Query(() => MediaFile, { description: 'One file of the media library; NOT_FOUND for an unknown id.' })
  mediaFile(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The file's id." }) id: number): Promise<MediaFile> {
    return this.service.getFile(ctx, id);
  }

  @Allow('admin')
  @Mutation(() => [MediaFile], { description: 'Uploads up to 20 images or songs into a folder; all are stored or none.' })
  uploadMediaFiles(
    @Ctx() ctx: RequestContext,
    @Arg('folderId', () => Int, { description: 'The folder the files go in.' }) folderId: number,
    @Arg('files', () => [GraphQLUpload], { description: 'The files (multipart request), each within the upload size limit (MAX_UPLOAD_MB, 25 MB by default).' }) files: Promise<FileUpload>[],
  ): Promise<MediaFile[]> {
    return this.service.upload(ctx, folderId, fromGraphQLUploads(files));
  }

  @Allow('admin')
  @Mutation(() => [MediaFile], { description: 'Uploads files into the top-level folder "Product Uploads" (made on first use).' })
  uploadProductMedia(
    @Ctx() ctx: RequestContext,
    @Arg('files', () => [GraphQLUpload], { description: 'Up to 20 images or songs (multipart request), each within the upload size limit.' }) files: Promise<FileUpload>[],
  ): Promise<MediaFile[]> {
    return this.service.uploadForProduct(ctx, fromGraphQLUploads(files));
  }

  @Allow('admin')
  @Mutation(() => MediaFile, { description: "Changes a file's display name (its stored bytes and address stay)." })
  renameMediaFile(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The file's id." }) id: number,
    @Arg('friendlyName', () => String, { description: 'The new display name, 1–255 characters.' }) friendlyName: string,
  ): Promise<MediaFile> {
    return this.service.renameFile(ctx, id, friendlyName);
  }

  @Allow('admin')
  @Mutation(() => Boolean, { description: 'Deletes a file and its bytes; whatever used it loses the reference.' })
  async deleteMediaFile(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The file's id." }) id: number): Promise<boolean> {
    await this.service.deleteFile(ctx, id);
    return true;
  }

  @FieldResolver(() => [MediaUsage], { description: 'Where the file is used (to warn before deleting it). Admins only: files also reach the public through products and posts.' })
  async usages(@Ctx() ctx: RequestContext, @Root() file: MediaFile): Promise<MediaUsage[]> {
    if (!(await ctx.isAdmin())) throw forbidden();
    return this.service.usagesOf(ctx, file.id);
  }
}

/** graphql-upload's files, one at a time, with its errors (size limit, too many files) as domain errors. */
async function* fromGraphQLUploads(files: Promise<FileUpload>[]): AsyncGenerator<IncomingUpload> {
  for (const pending of files) {
    try {
      const file = await pending;
      yield { fileName: file.filename, stream: file.createReadStream() };
    } catch (error) {
      throw uploadErrorToAppError(error) ?? error;
    }
  }
}
