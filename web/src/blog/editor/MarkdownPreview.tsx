import { useEffect, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { BlogPreviewQuery } from './blog-editor-operations';

/** The body as readers will see it: rendered and sanitised by the server, a moment after typing stops. */
export function MarkdownPreview({ body }: { body: string }) {
  const [settled, setSettled] = useState(body);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(body), 300);
    return () => clearTimeout(timer);
  }, [body]);
  const { data, previousData } = useQuery(BlogPreviewQuery, { variables: { body: settled }, skip: !settled.trim() });
  const html = settled.trim() ? (data ?? previousData)?.blogPreview ?? '' : '';
  if (!html) return <p className="muted">The body appears here as you write.</p>;
  return <div className="blog-post-body" data-testid="markdown-preview" dangerouslySetInnerHTML={{ __html: html }} />;
}
