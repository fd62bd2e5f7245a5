import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, type Intent } from '@blueprintjs/core';
import { WEBHOOK_EVENTS, type WebhookEventType } from '@rules';
import { errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { ShownOnce } from '../../common/ShownOnce';
import { CreateWebhookEndpointMutation } from './webhooks-operations';

type Problems = Partial<Record<'url' | 'events', string>>;

/**
 * "Add endpoint": the URL the events are POSTed to and the events it takes. Once created, the dialog
 * shows the signing secret, this once; it closes only through "Done" then, so the secret is not lost
 * to a stray click.
 */
export function CreateWebhookDialog({ onClose }: { onClose: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [secret, setSecret] = useState<string | null>(null);
  const [create, { loading }] = useMutation(CreateWebhookEndpointMutation, { refetchQueries: ['WebhookEndpoints'] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblems({});
    try {
      const { data } = await create({ variables: { input: { url: url.trim(), events } } });
      setSecret(data!.createWebhookEndpoint.secret);
    } catch (error) {
      const field = errorField(error);
      if (field === 'url' || field === 'events') setProblems({ [field]: errorMessage(error, 'Please check this field.') });
      else reportError('creating webhook endpoint', 'Failed to add the endpoint', error);
    }
  };
  const intent = (field: keyof Problems): Intent => (problems[field] ? 'danger' : 'none');
  const toggle = (type: WebhookEventType) => {
    setEvents((now) => (now.includes(type) ? now.filter((t) => t !== type) : [...now, type]));
    if (problems.events) setProblems(({ events: _gone, ...rest }) => rest);
  };

  return (
    <Dialog isOpen onClose={onClose} title={secret ? 'Endpoint added' : 'Add endpoint'} icon="send-to-graph" className="webhook-dialog" canEscapeKeyClose={!secret} canOutsideClickClose={!secret} isCloseButtonShown={!secret}>
      {secret ? (
        <>
          <DialogBody>
            <p>
              Every delivery to <code>{url.trim()}</code> is signed with this secret (the <code>ArtSong-Signature</code> header); check it before trusting a delivery:
            </p>
            <ShownOnce label="Signing secret" value={secret} warning="This secret will not be shown again: copy it now into what receives the events." />
          </DialogBody>
          <DialogFooter actions={<Button intent="primary" text="Done" onClick={onClose} />} />
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogBody>
            <FormGroup label="URL" labelFor="webhook-url" helperText={problems.url ?? 'An https:// address on the public internet that answers a POST with a 2xx.'} intent={intent('url')}>
              <InputGroup
                id="webhook-url"
                type="url"
                value={url}
                placeholder="https://example.com/hooks/art-song"
                onValueChange={(value) => {
                  setUrl(value);
                  if (problems.url) setProblems(({ url: _gone, ...rest }) => rest);
                }}
                maxLength={2000}
                intent={intent('url')}
                autoFocus
              />
            </FormGroup>
            <FormGroup label="Events" helperText={problems.events ?? 'It is sent these, and nothing else.'} intent={intent('events')}>
              {WEBHOOK_EVENTS.map(({ type, label, help }) => (
                <Checkbox key={type} checked={events.includes(type)} onChange={() => toggle(type)} labelElement={<span>{label} <code className="muted">{type}</code><br /><small className="muted">{help}</small></span>} />
              ))}
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancel" onClick={onClose} />
                <Button type="submit" intent="primary" text="Add endpoint" loading={loading} />
              </>
            }
          />
        </form>
      )}
    </Dialog>
  );
}
