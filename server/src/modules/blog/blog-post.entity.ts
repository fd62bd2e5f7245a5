import type { FilterQuery } from '@mikro-orm/core';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { User } from '../auth/index.js';
import { MediaFile } from '../media/index.js';

export enum BlogPostStatus {
  DRAFT = 'draft',
  PUBLISHED = 'published',
}
registerEnumType(BlogPostStatus, {
  name: 'BlogPostStatus',
  description: 'A draft is seen by admins only; a published post from its publication time on.',
  valuesConfig: {
    DRAFT: { description: 'Being written: admins only.' },
    PUBLISHED: { description: 'Public from `publishedAt` on (a later time is a scheduled post).' },
  },
});

/** A blog post, written in Markdown; the sanitised HTML is rendered once, when it is saved. */
@ObjectType({ description: 'A post of the blog.' })
@Entity({ tableName: 'blog_post' })
@Index({ name: 'blog_post_published_index', properties: ['status', 'publishedAt', 'id'] })
export class BlogPost {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'status' | 'excerpt' | 'body' | 'html' | 'metaDescription' | 'publishedAt' | 'coverImage' | 'author';

  @Field(() => Int, { description: "The post's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'The title (1–200 characters).' })
  @Property({ type: 'string', length: 200 })
  title!: string;

  @Field(() => String, { description: 'The address of the post: /blog/{slug}.' })
  @Property({ type: 'string', length: 120, unique: true })
  slug!: string;

  @Field(() => String, { description: 'A plain-text summary for lists and the feed; empty when none was written.' })
  @Property({ type: 'text', default: '' })
  excerpt: string = '';

  @Field(() => String, { description: 'The body in Markdown.' })
  @Property({ type: 'text', default: '' })
  body: string = '';

  @Field(() => String, { description: 'The body rendered to HTML and sanitised.' })
  @Property({ type: 'text', default: '' })
  html: string = '';

  @Field(() => String, { nullable: true, description: 'For search engines and social previews; the excerpt when empty.' })
  @Property({ type: 'string', length: 300, nullable: true })
  metaDescription: string | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'The picture at the top of the post and in lists; null: none.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null' })
  coverImage: MediaFile | null = null;

  @Field(() => BlogPostStatus, { description: 'DRAFT or PUBLISHED.' })
  @Enum({ items: () => BlogPostStatus, nativeEnumName: 'blog_post_status', type: 'string' })
  status: BlogPostStatus = BlogPostStatus.DRAFT;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the post is (or will be) public.' })
  @Property({ type: 'datetime', nullable: true })
  publishedAt: Date | null = null;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  author: User | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When the post was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Field(() => GraphQLISODateTime, { description: 'When it was last changed.' })
  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** The posts everyone may read: published, with a publication time that has come. */
export const publishedAndDue = (): FilterQuery<BlogPost> => ({ status: BlogPostStatus.PUBLISHED, publishedAt: { $lte: new Date() } });
