import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Button, Card, FormGroup, InputGroup, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
import type { BlogEditorPostQuery as BlogEditorPostQueryResult } from '../../apollo/generated/graphql';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { snackbar } from '../../common/toaster';
import { MediaBrowserDialog } from '../../common/media-browser/MediaBrowserDialog';
import { formatDate } from '../format-date';
import {
  BlogEditorPostQuery,
  CreateBlogPostMutation,
  DeleteBlogPostMutation,
  PublishBlogPostMutation,
  UnpublishBlogPostMutation,
  UpdateBlogPostMutation,
} from './blog-editor-operations';
import { MarkdownPreview } from './MarkdownPreview';
import { postSlugSchema, postTitleSchema } from '@rules/schemas';
import { slugFromTitle } from '@rules/slug';
import { UnsavedChangesAlert } from '../../common/UnsavedChangesAlert';
import { useUnsavedChanges } from '../../common/use-unsaved-changes';
import '../blog.css';
import './blog-editor.css';

interface Cover {
  id: number;
  filePath: string;
  thumbnailPath?: string | null;
  friendlyName: string;
}

interface Draft {
  title: string;
  slug: string;
  excerpt: string;
  body: string;
  metaDescription: string;
  cover: Cover | null;
}

const EMPTY: Draft = { title: '', slug: '', excerpt: '', body: '', metaDescription: '', cover: null };

/** /admin/blog/new and /admin/blog/edit/{id}: write a post in Markdown with a live preview. */
export default function BlogEditorPage() {
  const { id } = useParams();
  const editing = id !== undefined;
  const { data, loading, error } = useQuery(BlogEditorPostQuery, { variables: { idOrSlug: id ?? '' }, skip: !editing, fetchPolicy: 'network-only' });
  if (editing && loading) return <Spinner className="blog-spinner" aria-label="Loading the post" />;
  if (editing && (error || !data)) {
    return (
      <div className="coming-soon">
        <NonIdealState icon="search" title="Post not found" description={errorMessage(error, 'This post does not exist.')} action={<Link to="/blog">All posts</Link>} />
      </div>
    );
  }
  const post = data?.blogPost;
  return <Editor key={post?.id ?? 'new'} post={post ?? null} />;
}

type LoadedPost = BlogEditorPostQueryResult['blogPost'];

function Editor({ post }: { post: LoadedPost | null }) {
  const navigate = useNavigate();
  const initial: Draft = useMemo(
    () =>
      post
        ? { title: post.title, slug: post.slug, excerpt: post.excerpt, body: post.body, metaDescription: post.metaDescription ?? '', cover: post.coverImage ?? null }
        : EMPTY,
    [post],
  );
  const [draft, setDraft] = useState<Draft>(initial);
  const [saved, setSaved] = useState<Draft>(initial);
  const [slugTouched, setSlugTouched] = useState(Boolean(post));
  const [status, setStatus] = useState(post?.status ?? 'DRAFT');
  const [publishedAt, setPublishedAt] = useState(post?.publishedAt ?? null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pickingCover, setPickingCover] = useState(false);
  /** A local date and time to publish at ('' for now). */
  const [scheduleAt, setScheduleAt] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [create, creating] = useMutation(CreateBlogPostMutation);
  const [update, updating] = useMutation(UpdateBlogPostMutation);
  const [publish, publishing] = useMutation(PublishBlogPostMutation);
  const [unpublish, unpublishing] = useMutation(UnpublishBlogPostMutation);
  const [remove] = useMutation(DeleteBlogPostMutation);
  const busy = creating.loading || updating.loading || publishing.loading || unpublishing.loading;
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const { blocker, allowNavigation } = useUnsavedChanges(dirty);

  useEffect(() => {
    if (!slugTouched) setDraft((d) => ({ ...d, slug: slugFromTitle(d.title) }));
  }, [draft.title, slugTouched]);

  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setFieldErrors((errors) => ({ ...errors, [key]: '' }));
  };

  /** Saves the fields; returns the post id, or null when the server refused them. */
  const save = async (): Promise<number | null> => {
    setFieldErrors({});
    if (!draft.title.trim()) {
      setFieldErrors({ title: 'Required.' });
      return null;
    }
    // The shop's own rules for a title and an address (the schemas the server parses with), before a round trip.
    const title = postTitleSchema.safeParse(draft.title);
    const slug = draft.slug ? postSlugSchema.safeParse(draft.slug) : null;
    if (!title.success || (slug && !slug.success)) {
      setFieldErrors({ ...(title.success ? {} : { title: title.error.issues[0]!.message }), ...(slug && !slug.success ? { slug: slug.error.issues[0]!.message } : {}) });
      return null;
    }
    const input = {
      title: draft.title,
      slug: draft.slug || undefined,
      excerpt: draft.excerpt,
      body: draft.body,
      metaDescription: draft.metaDescription || null,
      coverImageId: draft.cover?.id ?? null,
    };
    try {
      let postId = post?.id ?? null;
      if (postId === null) {
        const result = await create({ variables: { input } });
        postId = result.data!.createBlogPost.id;
      } else {
        await update({ variables: { id: postId, input } });
      }
      setSaved(draft);
      return postId;
    } catch (e) {
      const field = CombinedGraphQLErrors.is(e) ? (e.errors[0]?.extensions?.field as string | undefined) : undefined;
      const message = errorMessage(e, 'Failed to save post');
      if (field) setFieldErrors({ [field === 'coverImageId' ? 'cover' : field]: message });
      void snackbar(`Error saving post: ${message}`, 'danger');
      return null;
    }
  };

  const afterSave = (postId: number) => {
    if (post) return;
    allowNavigation();
    navigate(`/admin/blog/edit/${postId}`, { replace: true });
  };

  const onSaveDraft = async () => {
    const postId = await save();
    if (postId === null) return;
    void snackbar('Post saved successfully!');
    afterSave(postId);
  };

  const onPublish = async () => {
    const postId = await save();
    if (postId === null) return;
    try {
      const publishAt = scheduleAt ? new Date(scheduleAt).toISOString() : null;
      const result = await publish({ variables: { id: postId, publishedAt: publishAt } });
      setStatus(result.data!.publishBlogPost.status);
      setPublishedAt(result.data!.publishBlogPost.publishedAt ?? null);
      void snackbar(publishAt && new Date(publishAt) > new Date() ? 'Post scheduled successfully!' : 'Post published successfully!');
      afterSave(postId);
    } catch (e) {
      void snackbar(`Error publishing post: ${errorMessage(e, 'Failed to publish post')}`, 'danger');
    }
  };

  const onUnpublish = async () => {
    if (!post) return;
    try {
      const result = await unpublish({ variables: { id: post.id } });
      setStatus(result.data!.unpublishBlogPost.status);
      setPublishedAt(null);
      void snackbar('Post unpublished successfully!');
    } catch (e) {
      void snackbar(`Error unpublishing post: ${errorMessage(e, 'Failed to unpublish post')}`, 'danger');
    }
  };

  const onDelete = async () => {
    if (!post) return;
    setConfirmDelete(false);
    try {
      await remove({ variables: { id: post.id }, update: (cache) => cache.evict({ id: cache.identify({ __typename: 'BlogPost', id: post.id }) }) });
      void snackbar('Post deleted successfully!');
      allowNavigation();
      navigate('/blog', { replace: true });
    } catch (e) {
      void snackbar(`Error deleting post: ${errorMessage(e, 'Failed to delete post')}`, 'danger');
    }
  };

  return (
    <div className="blog-editor">
      <header className="blog-editor-header">
        <div>
          <h1>{post ? 'Edit post' : 'New post'}</h1>
          <div className="blog-editor-status">
            {status !== 'PUBLISHED' ? (
              <Tag intent="warning">Draft</Tag>
            ) : publishedAt && new Date(publishedAt) > new Date() ? (
              <Tag intent="primary">Scheduled for {formatDate(publishedAt)}</Tag>
            ) : (
              <Tag intent="success">Published {formatDate(publishedAt)}</Tag>
            )}
            {dirty && <Tag minimal>Unsaved changes</Tag>}
          </div>
        </div>
        <div className="blog-editor-actions">
          {post && <Button icon="trash" intent="danger" variant="minimal" text="Delete" onClick={() => setConfirmDelete(true)} />}
          {post && status === 'PUBLISHED' && <Button icon="eye-off" text="Unpublish" onClick={onUnpublish} disabled={busy} />}
          <Button icon="floppy-disk" text="Save draft" onClick={onSaveDraft} loading={creating.loading || updating.loading} disabled={busy} />
          <Button icon="globe" intent="primary" text={status === 'PUBLISHED' ? 'Save and publish' : 'Publish'} onClick={onPublish} disabled={busy} />
        </div>
      </header>

      <div className="blog-editor-columns">
        <Card className="blog-editor-form">
          <FormGroup label="Title" labelFor="post-title" intent={fieldErrors.title ? 'danger' : 'none'} helperText={fieldErrors.title}>
            <InputGroup id="post-title" value={draft.title} onValueChange={set('title')} size="large" intent={fieldErrors.title ? 'danger' : 'none'} />
          </FormGroup>
          <FormGroup label="Address" labelFor="post-slug" intent={fieldErrors.slug ? 'danger' : 'none'} helperText={fieldErrors.slug || `/blog/${draft.slug || '…'}`}>
            <InputGroup
              id="post-slug"
              value={draft.slug}
              onValueChange={(value) => {
                setSlugTouched(true);
                set('slug')(value);
              }}
              intent={fieldErrors.slug ? 'danger' : 'none'}
            />
          </FormGroup>
          <FormGroup label="Excerpt" labelFor="post-excerpt" helperText="Shown in the list of posts.">
            <TextArea id="post-excerpt" value={draft.excerpt} onChange={(e) => set('excerpt')(e.target.value)} rows={2} fill />
          </FormGroup>
          <FormGroup label="Cover" intent={fieldErrors.cover ? 'danger' : 'none'} helperText={fieldErrors.cover}>
            <div className="blog-editor-cover">
              {draft.cover ? <img src={`/api/${draft.cover.thumbnailPath ?? draft.cover.filePath}`} alt={draft.cover.friendlyName} /> : <div className="blog-editor-cover-empty">No cover</div>}
              <div className="blog-editor-cover-actions">
                <Button icon="media" text={draft.cover ? 'Change cover' : 'Choose cover'} onClick={() => setPickingCover(true)} />
                {draft.cover && <Button variant="minimal" icon="cross" text="Remove" onClick={() => set('cover')(null)} />}
              </div>
            </div>
          </FormGroup>
          <FormGroup label="Body (Markdown)" labelFor="post-body" intent={fieldErrors.body ? 'danger' : 'none'} helperText={fieldErrors.body}>
            <TextArea id="post-body" className="blog-editor-body" value={draft.body} onChange={(e) => set('body')(e.target.value)} fill />
          </FormGroup>
          <FormGroup label="Publish at" labelFor="post-schedule" helperText="Leave empty to publish at once; a later time keeps the post hidden until then.">
            <InputGroup id="post-schedule" type="datetime-local" value={scheduleAt} onValueChange={setScheduleAt} />
          </FormGroup>
          <FormGroup label="Description for search engines and social previews" labelFor="post-meta" helperText="Optional; the excerpt is used when empty.">
            <InputGroup id="post-meta" value={draft.metaDescription} onValueChange={set('metaDescription')} />
          </FormGroup>
        </Card>
        <Card className="blog-editor-preview" aria-label="Preview">
          <div className="blog-editor-preview-label">Preview</div>
          {draft.cover && <img className="blog-post-cover" src={`/api/${draft.cover.filePath}`} alt="" />}
          <h1 className="blog-post-title">{draft.title || 'Untitled'}</h1>
          {draft.excerpt && <p className="blog-post-excerpt">{draft.excerpt}</p>}
          <MarkdownPreview body={draft.body} />
        </Card>
      </div>

      <MediaBrowserDialog
        isOpen={pickingCover}
        onClose={() => setPickingCover(false)}
        onSelect={(file) => {
          set('cover')({ id: file.id, filePath: file.filePath, thumbnailPath: file.thumbnailPath, friendlyName: file.friendlyName });
          setPickingCover(false);
        }}
      />
      <Alert
        isOpen={confirmDelete}
        intent="danger"
        icon="trash"
        confirmButtonText="Delete"
        cancelButtonText="Cancel"
        onConfirm={onDelete}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>Are you sure you want to delete this post? This cannot be undone.</p>
      </Alert>
      <UnsavedChangesAlert blocker={blocker} />
    </div>
  );
}
