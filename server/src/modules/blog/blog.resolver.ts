import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { ConnectionResult } from '../../core/pagination.js';
import type { BlogService } from './blog.service.js';
import { BlogPost } from './blog-post.entity.js';
import { BlogAuthor, BlogPostConnection, BlogPostInput, BlogPostsArgs, PublishBlogPostArgs } from './blog.types.js';

@Resolver(() => BlogPost)
export class BlogResolver {
  constructor(private readonly service: BlogService) {}

  @Allow('storefront')
  @Query(() => BlogPostConnection, { description: 'Published posts, newest first (admins may ask for drafts).' })
  blogPosts(@Ctx() ctx: RequestContext, @Args(() => BlogPostsArgs) args: BlogPostsArgs): Promise<ConnectionResult<BlogPost>> {
    return this.service.list(ctx, args);
  }

  @Allow('storefront')
  @Query(() => BlogPost, { description: 'A post by id or slug. Drafts and scheduled posts are found by admins only.' })
  blogPost(@Ctx() ctx: RequestContext, @Arg('idOrSlug', () => String, { description: 'The post\'s id (digits) or its slug, e.g. "spring-cards".' }) idOrSlug: string): Promise<BlogPost> {
    return this.service.get(ctx, idOrSlug);
  }

  @Allow('admin')
  @Query(() => String, { description: 'Markdown rendered and sanitised exactly as a saved post would be (the editor preview).' })
  blogPreview(@Arg('body', () => String, { description: 'The Markdown, up to 200,000 characters.' }) body: string): string {
    return this.service.preview(body);
  }

  @Allow('admin')
  @Mutation(() => BlogPost, { description: 'Creates a draft.' })
  createBlogPost(@Ctx() ctx: RequestContext, @Arg('input', () => BlogPostInput, { description: 'The post; `title` is required.' }) input: BlogPostInput): Promise<BlogPost> {
    return this.service.create(ctx, input);
  }

  @Allow('admin')
  @Mutation(() => BlogPost, { description: 'Edits a post; its status stays as it is.' })
  updateBlogPost(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The post's id." }) id: number,
    @Arg('input', () => BlogPostInput, { description: 'What changes; a field left out keeps its value.' }) input: BlogPostInput,
  ): Promise<BlogPost> {
    return this.service.update(ctx, id, input);
  }

  @Allow('admin')
  @Mutation(() => BlogPost, { description: 'Publishes a post now, or schedules it for `publishedAt`.' })
  publishBlogPost(@Ctx() ctx: RequestContext, @Args(() => PublishBlogPostArgs) { id, publishedAt }: PublishBlogPostArgs): Promise<BlogPost> {
    return this.service.publish(ctx, id, publishedAt);
  }

  @Allow('admin')
  @Mutation(() => BlogPost, { description: 'Turns a post back into a draft.' })
  unpublishBlogPost(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The post's id." }) id: number): Promise<BlogPost> {
    return this.service.unpublish(ctx, id);
  }

  @Allow('admin')
  @Mutation(() => Boolean, { description: 'Deletes a post for good; true once done. NOT_FOUND for an unknown id.' })
  async deleteBlogPost(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The post's id." }) id: number): Promise<boolean> {
    await this.service.delete(ctx, id);
    return true;
  }

  @FieldResolver(() => BlogAuthor, { nullable: true, description: 'Who wrote it; null once that account is gone.' })
  author(@Root() post: BlogPost): BlogAuthor | null {
    return post.author ? { id: post.author.id, username: post.author.username } : null;
  }

  @FieldResolver(() => String, { description: 'The meta description, else the excerpt, else the start of the body.' })
  description(@Root() post: BlogPost): string {
    return this.service.description(post);
  }
}
