/** The group card's dialogs for its purchaser: inviting signers by e-mail, and moving the signing deadline. */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { isEmail } from '@rules';
import { errorMessage } from '../../apollo/errors';
import type { GroupCardPanel_GroupCardFragment as GroupCard } from '../../apollo/generated/graphql';
import { snackbar } from '../../common/toaster';
import { pageIntl } from '../../i18n/page-intl';
import { ExtendSigningDeadlineMutation, InviteSignersMutation } from './group-card-operations';
import { fromLocalInput, toLocalInput } from './group-card-rules';

/** A moment of the group card (its deadline, an invitation) in the page's language. */
export const when = (iso: string) => pageIntl().formatDate(iso, { weekday: 'short', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

export const TEXTS = defineMessages({
  cancel: { id: 'groupCard.dialog.cancel', defaultMessage: 'Cancel' },
  invite: { id: 'groupCard.panel.invite', defaultMessage: 'Invite by e-mail' },
  extend: { id: 'groupCard.panel.extend', defaultMessage: 'Extend the deadline' },
  collectUntil: { id: 'groupCard.extend.label', defaultMessage: 'Collect signatures until' },
});

/** The addresses typed into the invitation box: separated by commas, semicolons, spaces or lines. */
export const typedAddresses = (text: string): string[] => [...new Set(text.split(/[\s,;]+/).map((email) => email.trim().toLowerCase()).filter(Boolean))];

/** "Invite by e-mail": up to the card's remaining invitations, each address once. */
export function InviteDialog({ isOpen, onClose, orderId, itemId, left }: { isOpen: boolean; onClose: () => void; orderId: string; itemId: number; left: number }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const intl = useIntl();
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
    if (!emails.length) return setError(intl.formatMessage({ id: 'groupCard.invite.none', defaultMessage: 'Type at least one e-mail address.' }));
    if (wrong.length) return setError(intl.formatMessage({ id: 'groupCard.invite.wrong', defaultMessage: 'Not an e-mail address: {addresses}' }, { addresses: wrong.join(', ') }));
    if (emails.length > left) {
      return setError(intl.formatMessage({ id: 'groupCard.invite.tooMany', defaultMessage: 'You can invite {left, plural, one {# more address} other {# more addresses}} to this card.' }, { left }));
    }
    try {
      const { data } = await invite({ variables: { orderId, itemId, emails } });
      const result = data!.inviteSigners;
      void snackbar(
        result.invited.length
          ? intl.formatMessage({ id: 'groupCard.invite.sent', defaultMessage: 'Invitation sent to {count, plural, one {# address} other {# addresses}}' }, { count: result.invited.length })
          : intl.formatMessage({ id: 'groupCard.invite.allInvited', defaultMessage: 'Everyone was already invited' }),
        'success',
        result.alreadyInvited.length ? intl.formatMessage({ id: 'groupCard.invite.already', defaultMessage: 'Already invited: {addresses}' }, { addresses: result.alreadyInvited.join(', ') }) : undefined,
      );
      close();
    } catch (failure) {
      setError(errorMessage(failure, intl.formatMessage({ id: 'groupCard.invite.failed', defaultMessage: 'The invitations could not be sent.' })));
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={close} title={intl.formatMessage(TEXTS.invite)} icon="envelope" className="group-card-dialog">
      <form onSubmit={send} noValidate>
        <DialogBody>
          <FormGroup
            label={intl.formatMessage({ id: 'groupCard.invite.label', defaultMessage: 'E-mail addresses' })}
            labelFor={`invite-${itemId}`}
            helperText={
              error ??
              intl.formatMessage(
                { id: 'groupCard.invite.help', defaultMessage: 'Separate them with commas or new lines. Each gets one invitation, and one reminder a day before the deadline if they have not signed. Up to {left} more.' },
                { left },
              )
            }
            intent={error ? 'danger' : 'none'}
          >
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
              <Button text={intl.formatMessage(TEXTS.cancel)} onClick={close} />
              <Button type="submit" intent="primary" icon="send-message" text={intl.formatMessage({ id: 'groupCard.invite.send', defaultMessage: 'Send invitations' })} loading={loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** "Extend the deadline": a later time, up to the card's delivery. */
export function ExtendDialog({ isOpen, onClose, orderId, itemId, groupCard }: { isOpen: boolean; onClose: () => void; orderId: string; itemId: number; groupCard: GroupCard }) {
  const latest = new Date(groupCard.latestCollectUntil);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const intl = useIntl();
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
    if (!collectUntil) return setError(intl.formatMessage({ id: 'groupCard.extend.missing', defaultMessage: 'Choose a date and time.' }));
    try {
      await extend({ variables: { orderId, itemId, collectUntil } });
      void snackbar(intl.formatMessage({ id: 'groupCard.extend.done', defaultMessage: 'Signatures are now collected until {when}' }, { when: when(collectUntil) }));
      close();
    } catch (failure) {
      setError(errorMessage(failure, intl.formatMessage({ id: 'groupCard.extend.failed', defaultMessage: 'The deadline could not be moved.' })));
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={close} title={intl.formatMessage(TEXTS.extend)} icon="time" className="group-card-dialog">
      <form onSubmit={save} noValidate>
        <DialogBody>
          <FormGroup
            label={intl.formatMessage(TEXTS.collectUntil)}
            labelFor={`extend-${itemId}`}
            helperText={error ?? intl.formatMessage({ id: 'groupCard.extend.help', defaultMessage: 'At the latest {when}, when the card goes out.' }, { when: when(groupCard.latestCollectUntil) })}
            intent={error ? 'danger' : 'none'}
          >
            <InputGroup id={`extend-${itemId}`} type="datetime-local" value={shown} min={toLocalInput(new Date(groupCard.collectUntil))} max={toLocalInput(latest)} onValueChange={setValue} intent={error ? 'danger' : 'none'} />
          </FormGroup>
          {groupCard.status === 'CLOSED' && (
            <Callout intent="primary">
              <FormattedMessage id="groupCard.extend.reopens" defaultMessage="Signing opens again until the new deadline." />
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={intl.formatMessage(TEXTS.cancel)} onClick={close} />
              <Button type="submit" intent="primary" text={intl.formatMessage({ id: 'groupCard.extend.submit', defaultMessage: 'Extend' })} loading={loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
