import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, type Intent } from '@blueprintjs/core';
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENTS, type WebhookEventType } from '@rules';
import { errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { ShownOnce } from '../../common/ShownOnce';
import { CreateWebhookEndpointMutation } from './webhooks-operations';

type Problems = Partial<Record<'url' | 'events', string>>;

/**
 * "Add endpoint": the URL the shop POSTs to and the events it takes. Once added, the dialog shows the
 * signing secret: this once (the receiver needs it to check each delivery's ArtSong-Signature). It
 * closes only through "Done" then, so the secret is not lost to a stray click.
 */
export function CreateWebhookDialog({ onClose }: { onClose: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [created, setCreated] = useState<{ secret: string; url: string } | null>(null);
  const [create, { loading }] = useMutation(CreateWebhookEndpointMutation, { refetchQueries: ['WebhookEndpoints'] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!events.length) return setProblems({ events: 'Choose at least one event.' });
    setProblems({});
    try {
      const { data } = await create({ variables: { input: { url: url.trim(), events } } });
      setCreated({ secret: data!.createWebhookEndpoint.secret, url: data!.createWebhookEndpoint.endpoint.url });
    } catch (error) {
      const field = errorField(error);
      if (field === 'url' || field === 'events') setProblems({ [field]: errorMessage(error, 'Please check this field.') });
      else reportError('creating webhook endpoint', 'Failed to add the webhook endpoint', error);
    }
  };
  const intent = (field: keyof Problems): Intent => (problems[field] ? 'danger' : 'none');
  const forget = (field: keyof Problems) => problems[field] && setProblems(({ [field]: _gone, ...rest }) => rest);
  const toggle = (type: WebhookEventType) => {
    setEvents((now) => (now.includes(type) ? now.filter((other) => other !== type) : [...now, type]));
    forget('events');
  };
  const all = events.length === WEBHOOK_EVENTS.length;

  return (
    <Dialog isOpen onClose={onClose} title={created ? 'Webhook endpoint added' : 'Add webhook endpoint'} icon="send-message" className="webhook-dialog" canEscapeKeyClose={!created} canOutsideClickClose={!created} isCloseButtonShown={!created}>
      {created ? (
        <>
          <DialogBody>
            <p>
              Deliveries to <code className="webhook-alert-url">{created.url}</code> are signed with this secret (the <code>ArtSong-Signature</code> header):
            </p>
            <ShownOnce
              label="Signing secret"
              value={created.secret}
              warning={
                <>
                  This secret will not be shown again. Copy it into the receiving service now; <a href="/developers#webhooks" target="_blank" rel="noopener">the developers' page</a> shows how to check a
                  signature.
                </>
              }
            />
          </DialogBody>
          <DialogFooter actions={<Button intent="primary" text="Done" onClick={onClose} />} />
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogBody>
            <FormGroup label="Endpoint URL" labelFor="webhook-url" helperText={problems.url ?? 'An https address of the receiving service, e.g. https://example.com/hooks/art-song.'} intent={intent('url')}>
              <InputGroup
                id="webhook-url"
                type="url"
                inputMode="url"
                placeholder="https://"
                value={url}
                onValueChange={(value) => {
                  setUrl(value);
                  forget('url');
                }}
                maxLength={MAX_WEBHOOK_URL_LENGTH}
                intent={intent('url')}
                autoFocus
              />
            </FormGroup>
            <FormGroup label="Events" helperText={problems.events ?? 'Each one is POSTed as it happens, and retried for three days until the endpoint answers 2xx.'} intent={intent('events')}>
              <Checkbox
                className="webhook-all-events"
                checked={all}
                indeterminate={events.length > 0 && !all}
                label="All events"
                onChange={() => {
                  setEvents(all ? [] : WEBHOOK_EVENTS.map((event) => event.type));
                  forget('events');
                }}
              />
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
