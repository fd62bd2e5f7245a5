import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Spinner, Tag } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorCode } from '../apollo/errors';
import { useAuth } from '../auth/auth-store';
import { useSettings } from '../settings/settings-store';
import { useShop } from '../settings/shop-store';
import { ResponsiveImage } from '../common/ResponsiveImage';
import { PostDate } from './PostDate';
import { BlogPostQuery } from './blog-operations';

/** The cover spans the page. */
const BLOG_COVER_SIZES = '100vw';
import './blog.css';
import { EmptyState } from '../common/EmptyState';

/** /blog/{id or slug}: one post. The HTML was sanitised by the server when the post was saved. */
export default function BlogPostPage() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const { admin } = useSettings();
  const { name: shopName } = useShop();
  const { data, loading, error } = useQuery(BlogPostQuery, { variables: { idOrSlug: id } });
  const post = data?.blogPost;
  const intl = useIntl();

  useEffect(() => {
    if (post) document.title = `${post.title} · ${shopName}`;
    return () => {
      document.title = shopName;
    };
  }, [post, shopName]);

  if (loading && !data) return <Spinner className="blog-spinner" aria-label={intl.formatMessage({ id: 'blog.loadingPost', defaultMessage: 'Loading the post' })} />;
  if (errorCode(error) === 'NOT_FOUND' || (!loading && !post && !error)) {
    return (
      <div className="coming-soon">
        <EmptyState level={1} icon="search" title={intl.formatMessage({ id: 'blog.notFound.title', defaultMessage: 'Post not found' })}
          description={intl.formatMessage({ id: 'blog.notFound.description', defaultMessage: 'This post does not exist, or it is not published yet.' })}
          action={
            <Link to="/blog">
              <FormattedMessage id="blog.allPosts" defaultMessage="All posts" />
            </Link>
          } />
      </div>
    );
  }
  if (error || !post) return <Callout intent="danger" title={intl.formatMessage({ id: 'blog.postError', defaultMessage: 'The post could not be loaded' })}>{error?.message}</Callout>;

  return (
    <article className="blog-post">
      {post.coverImage && (
        <ResponsiveImage className="blog-post-cover" image={post.coverImage} sizes={BLOG_COVER_SIZES} alt={post.coverImage.friendlyName} priority />
      )}
      <div className="blog-post-inner">
        <Link to="/blog" className="blog-back">
          ← <FormattedMessage id="blog.allPosts" defaultMessage="All posts" />
        </Link>
        <h1 className="blog-post-title">{post.title}</h1>
        <div className="blog-post-meta">
          {post.status === 'DRAFT' ? <Tag intent="warning"><FormattedMessage id="blog.draft" defaultMessage="Draft" /></Tag> : <PostDate iso={post.publishedAt} />}
          {post.author && <span> · {post.author.username}</span>}
          {admin && user && (
            <a href={`/admin/blog/edit/${post.id}`} className="blog-edit-link">
              <Button size="small" icon="edit" text={intl.formatMessage({ id: 'blog.edit', defaultMessage: 'Edit' })} tabIndex={-1} />
            </a>
          )}
        </div>
        {post.excerpt && <p className="blog-post-excerpt">{post.excerpt}</p>}
        <div className="blog-post-body" dangerouslySetInnerHTML={{ __html: post.html }} />
      </div>
    </article>
  );
}
