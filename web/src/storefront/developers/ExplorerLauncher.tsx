import { useState, type FormEvent } from 'react';
import { Button, Classes, FormGroup, InputGroup } from '@blueprintjs/core';
import { API_KEY_PATTERN } from '@rules';

/**
 * The explorer's address with a key handed over in its fragment (`/graphql#key=ask_…`): browsers
 * never send the fragment, so the key reaches the explorer's page and no server. The explorer puts it
 * in its Authorization header and takes it out of the address (web/src/explorer/main.tsx).
 */
export const explorerUrl = (key: string) => `/graphql#key=${encodeURIComponent(key)}`;

/** "Try it": a field for an API key that opens the GraphQL explorer, in a new tab, with the key filled in. */
export function ExplorerLauncher() {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const open = (event: FormEvent) => {
    event.preventDefault();
    const value = key.trim();
    if (!API_KEY_PATTERN.test(value)) {
      setProblem(value ? 'An API key is ask_ followed by 32 letters and digits: paste it whole.' : 'Paste an API key first.');
      return;
    }
    setProblem(null);
    window.open(explorerUrl(value), '_blank', 'noopener');
  };

  return (
    <form className="explorer-launcher" onSubmit={open} noValidate aria-label="Open the GraphQL explorer with an API key">
      <FormGroup label="API key" labelFor="explorer-key" intent={problem ? 'danger' : 'none'}>
        <div className="explorer-launcher-row">
          <InputGroup
            id="explorer-key"
            type="password"
            value={key}
            onValueChange={(value) => {
              setKey(value);
              if (problem) setProblem(null);
            }}
            placeholder="ask_…"
            autoComplete="off"
            spellCheck={false}
            intent={problem ? 'danger' : 'none'}
            aria-invalid={problem ? true : undefined}
            aria-describedby="explorer-key-help"
          />
          <Button type="submit" intent="primary" icon="share" text="Open the explorer" />
        </div>
        <p id="explorer-key-help" className={Classes.FORM_HELPER_TEXT} aria-live="polite">
          {problem ?? 'It stays in your browser: the shop never receives it from this page, and the explorer does not save it.'}
        </p>
      </FormGroup>
    </form>
  );
}
