import { ArgsType, Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';
import { Connection, ConnectionArgs } from '../../core/pagination.js';
import { BlogPost, BlogPostStatus } from './blog-post.entity.js';

export const BlogPostConnection = Connection(BlogPost, 'BlogPost');

@ObjectType({ description: 'Who wrote a post.' })
export class BlogAuthor {
  @Field(() => Int, { description: "The author's user id." })
  id!: number;

  @Field(() => String, { description: "The author's username, shown as the byline." })
  username!: string;
}

@ArgsType()
export class BlogPostsArgs extends ConnectionArgs {
  @Field(() => BlogPostStatus, { nullable: true, description: 'Admins only: drafts instead of published posts. Readers always get published posts.' })
  status?: BlogPostStatus | null;
}

@InputType({ description: 'The fields of a post; on update, a field left out keeps its value.' })
export class BlogPostInput {
  @Field(() => String, { nullable: true, description: 'The title, 1–200 characters; required to create a post.' })
  title?: string;

  @Field(() => String, { nullable: true, description: 'Made from the title when left out on creation.' })
  slug?: string;

  @Field(() => String, { nullable: true, description: 'A plain-text summary for lists and the feed, up to 1,000 characters.' })
  excerpt?: string;

  @Field(() => String, { nullable: true, description: 'Markdown.' })
  body?: string;

  @Field(() => String, { nullable: true, description: 'For search engines and social previews, up to 300 characters; null or empty uses the excerpt.' })
  metaDescription?: string | null;

  @Field(() => Int, { nullable: true, description: 'An image of the media library; null removes the cover.' })
  coverImageId?: number | null;
}

@ArgsType()
export class PublishBlogPostArgs {
  @Field(() => Int, { description: "The post's id." })
  id!: number;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'A later time schedules the post; default now.' })
  publishedAt?: Date | null;
}
