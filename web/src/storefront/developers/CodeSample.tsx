import { useEffect, useRef, useState } from 'react';
import { Button } from '@blueprintjs/core';

/**
 * A code sample of /developers: the code in <pre><code> with a Copy button. Copying goes through the
 * clipboard; where the browser refuses it, the code is selected instead, for Ctrl+C. What happened is
 * said on the button and to screen readers.
 */
export function CodeSample({ title, code, language }: { title: string; code: string; language: 'sh' | 'graphql' | 'js' | 'http' | 'json' }) {
  const [copied, setCopied] = useState<'copied' | 'selected' | null>(null);
  const codeRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied('copied');
    } catch {
      const selection = window.getSelection();
      if (codeRef.current && selection) selection.selectAllChildren(codeRef.current);
      setCopied('selected');
    }
  };

  return (
    <figure className="code-sample">
      <figcaption className="code-sample-bar">
        <span className="code-sample-title">{title}</span>
        <Button size="small" variant="minimal" icon={copied === 'copied' ? 'tick' : 'duplicate'} text={copied === 'copied' ? 'Copied' : 'Copy'} aria-label={`${copied === 'copied' ? 'Copied' : 'Copy'}: ${title}`} onClick={() => void copy()} />
      </figcaption>
      {/* Focusable: a long line scrolls sideways, and a keyboard must be able to scroll it too. */}
      <pre className="code-sample-code" tabIndex={0}>
        <code ref={codeRef} className={`language-${language}`}>
          {code}
        </code>
      </pre>
      <span className="visually-hidden" role="status">
        {copied === 'copied' ? `${title}: copied to the clipboard` : copied === 'selected' ? `${title}: selected; press Ctrl+C to copy it` : ''}
      </span>
    </figure>
  );
}
