import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Alert, Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Tag, type Intent } from '@blueprintjs/core';
import { isEmail, SIGNING_TEXTS } from '@rules';
import { errorMessage } from '../../apollo/errors';
import type { GroupCardPanel_GroupCardFragment as GroupCard, GroupCardStatus } from '../../apollo/generated/graphql';
import { snackbar } from '../../common/toaster';
import { ExtendSigningDeadlineMutation, InviteSignersMutation, RemoveGroupCardSignatureMutation } from './group-card-operations';
import { fromLocalInput, toLocalInput } from './group-card-rules';
import './group-card.css';
import { pageIntl } from '../../i18n/page-intl';

const when = (iso: string) => pageIntl().formatDate(iso, { weekday: 'short', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

const STATUS: Record<GroupCardStatus, { label: string; intent: Intent }> = {
  OPEN: { label: 'Collecting signatures', intent: 'success' },
  FULL: { label: 'Full', intent: 'warning' },
  CLOSED: { label: 'Signing closed', intent: 'none' },
  WITHDRAWN: { label: 'Withdrawn', intent: 'danger' },
};

/**
 * A group card for its purchaser (the confirmation page and My orders): the signing link with a copy
 * button, "Invite by e-mail", the deadline (which can move later, up to the delivery), every signature
 * (any can be removed) and the invited addresses.
 */
export function GroupCardPanel({ orderId, itemId, recipientName, groupCard }: { orderId: string; itemId: number; recipientName: string; groupCard: GroupCard }) {
  const link = `${window.location.origin}${groupCard.signingPath}`;
  const linkInput = useRef<HTMLInputElement>(null);
  const [inviting, setInviting] = useState(false);
  const [extending, setExtending] = useState(false);
  const [removing, setRemoving] = useState<GroupCard['signatures'][number] | null>(null);
  const [remove] = useMutation(RemoveGroupCardSignatureMutation);
  const live = groupCard.status === 'OPEN' || groupCard.status === 'FULL';
  const canExtend = groupCard.status !== 'WITHDRAWN' && new Date(groupCard.collectUntil) < new Date(groupCard.latestCollectUntil) && new Date(groupCard.latestCollectUntil) > new Date();
  const status = STATUS[groupCard.status];

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      void snackbar('Signing link copied');
    } catch {
      linkInput.current?.select();
      void snackbar('Select the link and copy it', 'warning');
    }
  };

  const confirmRemove = async () => {
    const signature = removing;
    setRemoving(null);
    if (!signature) return;
    try {
      await remove({ variables: { orderId, signatureId: signature.id } });
      void snackbar(`${signature.name}'s signature was removed`);
    } catch (failure) {
      void snackbar(errorMessage(failure, 'The signature could not be removed.'), 'danger');
    }
  };

  return (
    <section className="group-card-panel" aria-label={`Group card for ${recipientName}`}>
      <header className="group-card-head">
        <h3>Group card</h3>
        <Tag minimal round intent={status.intent}>
          {status.label}
        </Tag>
        <span className="muted">
          {groupCard.status === 'CLOSED' ? SIGNING_TEXTS.closed : groupCard.status === 'WITHDRAWN' ? SIGNING_TEXTS.withdrawn : `Signatures collected until ${when(groupCard.collectUntil)}`}
        </span>
      </header>
      {live && (
        <>
          <FormGroup label="Signing link" labelFor={`signing-link-${itemId}`} helperText="Share it with everyone who should sign the card. It does not show the card itself.">
            <div className="group-card-link">
              <InputGroup id={`signing-link-${itemId}`} inputRef={linkInput} readOnly value={link} onFocus={(event) => event.currentTarget.select()} fill />
              <Button icon="duplicate" text="Copy" onClick={() => void copy()} />
            </div>
          </FormGroup>
          <div className="group-card-actions">
            <Button icon="envelope" variant="outlined" text="Invite by e-mail" onClick={() => setInviting(true)} disabled={groupCard.invitations.length >= groupCard.maxInvitations} />
            {canExtend && <Button icon="time" variant="outlined" text="Extend the deadline" onClick={() => setExtending(true)} />}
          </div>
        </>
      )}
      {!live && canExtend && groupCard.status === 'CLOSED' && (
        <div className="group-card-actions">
          <Button icon="time" variant="outlined" text="Extend the deadline" onClick={() => setExtending(true)} />
        </div>
      )}
      <h4>
        Signatures <span className="muted">({groupCard.signatureCount} of {groupCard.maxSignatures})</span>
      </h4>
      {groupCard.signatures.length === 0 ? (
        <p className="muted group-card-empty">No signatures yet.</p>
      ) : (
        <ul className="group-card-signatures" aria-label="Signatures">
          {groupCard.signatures.map((signature) => (
            <li key={signature.id}>
              <div>
                <blockquote>{signature.message}</blockquote>
                <span className="muted">— {signature.name}</span>
              </div>
              <Button size="small" variant="minimal" icon="trash" intent="danger" aria-label={`Remove ${signature.name}'s signature`} onClick={() => setRemoving(signature)} />
            </li>
          ))}
        </ul>
      )}
      {groupCard.invitations.length > 0 && (
        <details className="group-card-invitations">
          <summary>
            Invited by e-mail ({groupCard.invitations.filter((invitation) => invitation.signedAt).length} of {groupCard.invitations.length} signed)
          </summary>
          <ul>
            {groupCard.invitations.map((invitation) => (
              <li key={invitation.id}>
                <span>{invitation.email}</span>
                <span className="muted">{invitation.signedAt ? 'signed' : invitation.remindedAt ? `reminded ${when(invitation.remindedAt)}` : `invited ${when(invitation.invitedAt)}`}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <InviteDialog isOpen={inviting} onClose={() => setInviting(false)} orderId={orderId} itemId={itemId} left={groupCard.maxInvitations - groupCard.invitations.length} />
      <ExtendDialog isOpen={extending} onClose={() => setExtending(false)} orderId={orderId} itemId={itemId} groupCard={groupCard} />
      <Alert isOpen={removing !== null} icon="trash" intent="danger" confirmButtonText="Remove" cancelButtonText="Cancel" onConfirm={() => void confirmRemove()} onCancel={() => setRemoving(null)} canEscapeKeyCancel>
        <p>Remove {removing?.name}&apos;s signature from the card?</p>
      </Alert>
    </section>
  );
}

/** The addresses typed into the invitation box: separated by commas, semicolons, spaces or lines. */
export const typedAddresses = (text: string): string[] => [...new Set(text.split(/[\s,;]+/).map((email) => email.trim().toLowerCase()).filter(Boolean))];

/** "Invite by e-mail": up to the card's remaining invitations, each address once. */
function InviteDialog({ isOpen, onClose, orderId, itemId, left }: { isOpen: boolean; onClose: () => void; orderId: string; itemId: number; left: number }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [invite, { loading }] = useMutation(InviteSignersMutation);
  const close = () => {
    setText('');
    setError(null);
    onClose();
  };
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const emails = typedAddresses(text);
    const wrong = emails.filter((email) => !isEmail(email));
    if (!emails.length) return setError('Type at least one e-mail address.');
    if (wrong.length) return setError(`Not an e-mail address: ${wrong.join(', ')}`);
    if (emails.length > left) return setError(`You can invite ${left} more ${left === 1 ? 'address' : 'addresses'} to this card.`);
    try {
      const { data } = await invite({ variables: { orderId, itemId, emails } });
      const result = data!.inviteSigners;
      void snackbar(
        result.invited.length ? `Invitation sent to ${result.invited.length} ${result.invited.length === 1 ? 'address' : 'addresses'}` : 'Everyone was already invited',
        'success',
        result.alreadyInvited.length ? `Already invited: ${result.alreadyInvited.join(', ')}` : undefined,
      );
      close();
    } catch (failure) {
      setError(errorMessage(failure, 'The invitations could not be sent.'));
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={close} title="Invite by e-mail" icon="envelope" className="group-card-dialog">
      <form onSubmit={send} noValidate>
        <DialogBody>
          <FormGroup label="E-mail addresses" labelFor={`invite-${itemId}`} helperText={error ?? `Separate them with commas or new lines. Each gets one invitation, and one reminder a day before the deadline if they have not signed. Up to ${left} more.`} intent={error ? 'danger' : 'none'}>
            <textarea id={`invite-${itemId}`} className={`${Classes.INPUT} ${Classes.TEXT_AREA} ${Classes.FILL}`} rows={5} value={text} onChange={(event) => {
                setText(event.currentTarget.value);
                setError(null);
              }}
              placeholder="alex@example.com, sam@example.com" />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={close} />
              <Button type="submit" intent="primary" icon="send-message" text="Send invitations" loading={loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** "Extend the deadline": a later time, up to the card's delivery. */
function ExtendDialog({ isOpen, onClose, orderId, itemId, groupCard }: { isOpen: boolean; onClose: () => void; orderId: string; itemId: number; groupCard: GroupCard }) {
  const latest = new Date(groupCard.latestCollectUntil);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [extend, { loading }] = useMutation(ExtendSigningDeadlineMutation);
  const shown = value || toLocalInput(latest);
  const close = () => {
    setValue('');
    setError(null);
    onClose();
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const collectUntil = fromLocalInput(shown);
    if (!collectUntil) return setError('Choose a date and time.');
    try {
      await extend({ variables: { orderId, itemId, collectUntil } });
      void snackbar(`Signatures are now collected until ${when(collectUntil)}`);
      close();
    } catch (failure) {
      setError(errorMessage(failure, 'The deadline could not be moved.'));
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={close} title="Extend the deadline" icon="time" className="group-card-dialog">
      <form onSubmit={save} noValidate>
        <DialogBody>
          <FormGroup label="Collect signatures until" labelFor={`extend-${itemId}`} helperText={error ?? `At the latest ${when(groupCard.latestCollectUntil)}, when the card goes out.`} intent={error ? 'danger' : 'none'}>
            <InputGroup id={`extend-${itemId}`} type="datetime-local" value={shown} min={toLocalInput(new Date(groupCard.collectUntil))} max={toLocalInput(latest)} onValueChange={setValue} intent={error ? 'danger' : 'none'} />
          </FormGroup>
          {groupCard.status === 'CLOSED' && <Callout intent="primary">Signing opens again until the new deadline.</Callout>}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={close} />
              <Button type="submit" intent="primary" text="Extend" loading={loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
