import { Link } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Card, H1, Spinner, Tag } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { BlogPostsQuery } from './blog-operations';
import { useAuth } from '../auth/auth-store';
import { useSettings } from '../settings/settings-store';
import { useShop } from '../settings/shop-store';
import { ResponsiveImage } from '../common/ResponsiveImage';
import { PostDate } from './PostDate';
import './blog.css';
import { EmptyState } from '../common/EmptyState';


/** A card is the page's width on a phone, about a third of it (at most 1,100 px) on a wide screen. */
const BLOG_CARD_SIZES = '(max-width: 700px) 100vw, 360px';
const PAGE = 10;

/** /blog: published posts, newest first; admins also find their drafts here. */
export default function BlogListPage() {
  const { user } = useAuth();
  const { admin } = useSettings();
  const { name } = useShop();
  const isAdmin = admin && user !== null;
  const intl = useIntl();
  return (
    <div className="blog-page">
      <header className="blog-header">
        <div>
          <H1>
            <FormattedMessage id="blog.title" defaultMessage="Blog" />
          </H1>
          <p className="muted">
            <FormattedMessage id="blog.lead" defaultMessage="Stories, ideas and news from {name}." values={{ name }} />
          </p>
        </div>
        <div className="blog-header-actions">
          <a href="/blog/rss.xml" className="bp6-button bp6-minimal" title={intl.formatMessage({ id: 'blog.rss', defaultMessage: 'RSS feed' })}>
            RSS
          </a>
          {isAdmin && (
            <a href="/admin/blog/new">
              <Button intent="primary" icon="edit" text={intl.formatMessage({ id: 'blog.newPost', defaultMessage: 'New post' })} tabIndex={-1} />
            </a>
          )}
        </div>
      </header>
      {isAdmin && <PostList status="DRAFT" title={intl.formatMessage({ id: 'blog.drafts', defaultMessage: 'Drafts' })} />}
      <PostList status={null} />
    </div>
  );
}

function PostList({ status, title }: { status: 'DRAFT' | null; title?: string }) {
  const { data, loading, error, fetchMore } = useQuery(BlogPostsQuery, { variables: { first: PAGE, status } });
  const posts = data?.blogPosts.edges.map((edge) => edge.node) ?? [];
  const intl = useIntl();
  if (loading && !data) return <Spinner className="blog-spinner" aria-label={intl.formatMessage({ id: 'blog.loadingPosts', defaultMessage: 'Loading posts' })} />;
  if (error) return <Callout intent="danger" title={intl.formatMessage({ id: 'blog.error', defaultMessage: 'The blog could not be loaded' })}>{error.message}</Callout>;
  if (!posts.length) {
    if (status) return null;
    return <EmptyState icon="manual" title={intl.formatMessage({ id: 'blog.empty.title', defaultMessage: 'No posts yet' })} description={intl.formatMessage({ id: 'blog.empty.description', defaultMessage: 'Check back soon for stories from the shop.' })} />;
  }
  return (
    <section className="blog-section" aria-label={title ?? intl.formatMessage({ id: 'blog.posts', defaultMessage: 'Posts' })}>
      {title && <h2 className="blog-section-title">{title}</h2>}
      <div className="blog-grid">
        {posts.map((post, index) => (
          <Card key={post.id} className="blog-card" interactive elevation={1}>
            <Link to={`/blog/${post.status === 'DRAFT' ? post.id : post.slug}`} className="blog-card-link">
              {post.coverImage ? (
                <ResponsiveImage className="blog-card-cover" image={post.coverImage} sizes={BLOG_CARD_SIZES} alt="" priority={!status && index === 0} />
              ) : (
                <div className="blog-card-cover blog-card-cover-empty" aria-hidden />
              )}
              <div className="blog-card-body">
                <h2 className="blog-card-title">{post.title}</h2>
                {post.excerpt && <p>{post.excerpt}</p>}
                <div className="blog-card-meta">
                  {post.status === 'DRAFT' ? <Tag minimal intent="warning">
                      <FormattedMessage id="blog.draft" defaultMessage="Draft" />
                    </Tag> : <PostDate iso={post.publishedAt} />}
                </div>
              </div>
            </Link>
          </Card>
        ))}
      </div>
      {data?.blogPosts.pageInfo.hasNextPage && (
        <div className="blog-more">
          <Button
            text={intl.formatMessage({ id: 'blog.older', defaultMessage: 'Older posts' })}
            icon="arrow-down"
            loading={loading}
            onClick={() => void fetchMore({ variables: { after: data.blogPosts.pageInfo.endCursor } })}
          />
        </div>
      )}
    </section>
  );
}
