import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, type Intent } from '@blueprintjs/core';
import { errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { ShownOnce } from '../../common/ShownOnce';
import { API_KEY_SCOPES, type ApiKeyScope } from './api-key-scopes';
import { CreateApiKeyMutation } from './api-keys-operations';

type Problems = Partial<Record<'name' | 'scopes', string>>;

/**
 * "Create API key": a name that says who uses it and the scopes it gets. Once created, the dialog
 * shows the key: this once, since the shop keeps only its digest and last four characters. It closes
 * only through "Done" then, so the key is not lost to a stray click.
 */
export function CreateApiKeyDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const [create, { loading }] = useMutation(CreateApiKeyMutation, { refetchQueries: ['ApiKeys'] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblems({});
    try {
      const { data } = await create({ variables: { input: { name: name.trim(), scopes } } });
      setCreated({ key: data!.createApiKey.key, name: name.trim() });
    } catch (error) {
      const field = errorField(error);
      if (field === 'name' || field === 'scopes') setProblems({ [field]: errorMessage(error, 'Please check this field.') });
      else reportError('creating API key', 'Failed to create the API key', error);
    }
  };
  const intent = (field: keyof Problems): Intent => (problems[field] ? 'danger' : 'none');
  const toggle = (scope: ApiKeyScope) => {
    setScopes((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]));
    if (problems.scopes) setProblems(({ scopes: _gone, ...rest }) => rest);
  };

  return (
    <Dialog isOpen onClose={onClose} title={created ? 'API key created' : 'Create API key'} icon="key" className="api-key-dialog" canEscapeKeyClose={!created} canOutsideClickClose={!created} isCloseButtonShown={!created}>
      {created ? (
        <>
          <DialogBody>
            <p>
              Give <strong>{created.name}</strong> this key, sent as <code>Authorization: Bearer …</code>:
            </p>
            <ShownOnce label="API key" value={created.key} warning="This key will not be shown again: the shop keeps only its last four characters. Copy it now." />
          </DialogBody>
          <DialogFooter actions={<Button intent="primary" text="Done" onClick={onClose} />} />
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogBody>
            <FormGroup label="Name" labelFor="api-key-name" helperText={problems.name ?? 'Who uses it, e.g. "Fulfilment service". Its changes are audited under this name.'} intent={intent('name')}>
              <InputGroup
                id="api-key-name"
                value={name}
                onValueChange={(value) => {
                  setName(value);
                  if (problems.name) setProblems(({ name: _gone, ...rest }) => rest);
                }}
                maxLength={100}
                intent={intent('name')}
                autoFocus
              />
            </FormGroup>
            <FormGroup label="Scopes" helperText={problems.scopes ?? 'The key may do exactly this and nothing else.'} intent={intent('scopes')}>
              {API_KEY_SCOPES.map(({ scope, label, help }) => (
                <Checkbox key={scope} checked={scopes.includes(scope)} onChange={() => toggle(scope)} labelElement={<span>{label} <code className="muted">{scope}</code><br /><small className="muted">{help}</small></span>} />
              ))}
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancel" onClick={onClose} />
                <Button type="submit" intent="primary" text="Create API key" loading={loading} />
              </>
            }
          />
        </form>
      )}
    </Dialog>
  );
}
