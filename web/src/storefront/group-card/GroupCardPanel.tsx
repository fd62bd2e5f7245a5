import { useRef, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Alert, Button, FormGroup, InputGroup, Tag, type Intent } from '@blueprintjs/core';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { errorMessage } from '../../apollo/errors';
import type { GroupCardPanel_GroupCardFragment as GroupCard, GroupCardStatus } from '../../apollo/generated/graphql';
import { snackbar } from '../../common/toaster';
import { RemoveGroupCardSignatureMutation } from './group-card-operations';
import './group-card.css';
import { ExtendDialog, InviteDialog, TEXTS, when } from './GroupCardDialogs';

const STATUS_LABELS = defineMessages({
  OPEN: { id: 'groupCard.status.open', defaultMessage: 'Collecting signatures' },
  FULL: { id: 'groupCard.status.full', defaultMessage: 'Full' },
  CLOSED: { id: 'groupCard.status.closed', defaultMessage: 'Signing closed' },
  WITHDRAWN: { id: 'groupCard.status.withdrawn', defaultMessage: 'Withdrawn' },
});

const STATUS_INTENTS: Record<GroupCardStatus, Intent> = { OPEN: 'success', FULL: 'warning', CLOSED: 'none', WITHDRAWN: 'danger' };


/**
 * A group card for its purchaser (the confirmation page and My orders): the signing link with a copy
 * button, "Invite by e-mail", the deadline (which can move later, up to the delivery), every signature
 * (any can be removed) and the invited addresses.
 */
export function GroupCardPanel({ orderId, itemId, recipientName, groupCard }: { orderId: string; itemId: number; recipientName: string; groupCard: GroupCard }) {
  const intl = useIntl();
  const link = `${window.location.origin}${groupCard.signingPath}`;
  const linkInput = useRef<HTMLInputElement>(null);
  const [inviting, setInviting] = useState(false);
  const [extending, setExtending] = useState(false);
  const [removing, setRemoving] = useState<GroupCard['signatures'][number] | null>(null);
  const [remove] = useMutation(RemoveGroupCardSignatureMutation);
  const live = groupCard.status === 'OPEN' || groupCard.status === 'FULL';
  const canExtend = groupCard.status !== 'WITHDRAWN' && new Date(groupCard.collectUntil) < new Date(groupCard.latestCollectUntil) && new Date(groupCard.latestCollectUntil) > new Date();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      void snackbar(intl.formatMessage({ id: 'groupCard.panel.copied', defaultMessage: 'Signing link copied' }));
    } catch {
      linkInput.current?.select();
      void snackbar(intl.formatMessage({ id: 'groupCard.panel.copyByHand', defaultMessage: 'Select the link and copy it' }), 'warning');
    }
  };

  const confirmRemove = async () => {
    const signature = removing;
    setRemoving(null);
    if (!signature) return;
    try {
      await remove({ variables: { orderId, signatureId: signature.id } });
      void snackbar(intl.formatMessage({ id: 'groupCard.panel.removed', defaultMessage: "{name}'s signature was removed" }, { name: signature.name }));
    } catch (failure) {
      void snackbar(errorMessage(failure, intl.formatMessage({ id: 'groupCard.panel.removeFailed', defaultMessage: 'The signature could not be removed.' })), 'danger');
    }
  };

  return (
    <section className="group-card-panel" aria-label={intl.formatMessage({ id: 'groupCard.panel.label', defaultMessage: 'Group card for {recipient}' }, { recipient: recipientName })}>
      <header className="group-card-head">
        <h3>
          <FormattedMessage id="groupCard.panel.title" defaultMessage="Group card" />
        </h3>
        <Tag minimal round intent={STATUS_INTENTS[groupCard.status]}>
          {intl.formatMessage(STATUS_LABELS[groupCard.status])}
        </Tag>
        <span className="muted">
          {groupCard.status === 'CLOSED' ? (
            <FormattedMessage id="groupCard.panel.closed" defaultMessage="Signing has closed." />
          ) : groupCard.status === 'WITHDRAWN' ? (
            <FormattedMessage id="groupCard.panel.withdrawn" defaultMessage="This card was withdrawn." />
          ) : (
            <FormattedMessage id="groupCard.panel.collecting" defaultMessage="Signatures collected until {when}" values={{ when: when(groupCard.collectUntil) }} />
          )}
        </span>
      </header>
      {live && (
        <>
          <FormGroup
            label={intl.formatMessage({ id: 'groupCard.panel.link', defaultMessage: 'Signing link' })}
            labelFor={`signing-link-${itemId}`}
            helperText={intl.formatMessage({ id: 'groupCard.panel.linkHelp', defaultMessage: 'Share it with everyone who should sign the card. It does not show the card itself.' })}
          >
            <div className="group-card-link">
              <InputGroup id={`signing-link-${itemId}`} inputRef={linkInput} readOnly value={link} onFocus={(event) => event.currentTarget.select()} fill />
              <Button icon="duplicate" text={intl.formatMessage({ id: 'groupCard.panel.copy', defaultMessage: 'Copy' })} onClick={() => void copy()} />
            </div>
          </FormGroup>
          <div className="group-card-actions">
            <Button icon="envelope" variant="outlined" text={intl.formatMessage(TEXTS.invite)} onClick={() => setInviting(true)} disabled={groupCard.invitations.length >= groupCard.maxInvitations} />
            {canExtend && <Button icon="time" variant="outlined" text={intl.formatMessage(TEXTS.extend)} onClick={() => setExtending(true)} />}
          </div>
        </>
      )}
      {!live && canExtend && groupCard.status === 'CLOSED' && (
        <div className="group-card-actions">
          <Button icon="time" variant="outlined" text={intl.formatMessage(TEXTS.extend)} onClick={() => setExtending(true)} />
        </div>
      )}
      <h4>
        <FormattedMessage
          id="groupCard.panel.signatures"
          defaultMessage="Signatures <muted>({count} of {max})</muted>"
          values={{ count: groupCard.signatureCount, max: groupCard.maxSignatures, muted: (chunks) => <span className="muted">{chunks}</span> }}
        />
      </h4>
      {groupCard.signatures.length === 0 ? (
        <p className="muted group-card-empty">
          <FormattedMessage id="groupCard.panel.noSignatures" defaultMessage="No signatures yet." />
        </p>
      ) : (
        <ul className="group-card-signatures" aria-label={intl.formatMessage({ id: 'groupCard.panel.signatureList', defaultMessage: 'Signatures' })}>
          {groupCard.signatures.map((signature) => (
            <li key={signature.id}>
              <div>
                <blockquote>{signature.message}</blockquote>
                <span className="muted">— {signature.name}</span>
              </div>
              <Button size="small" variant="minimal" icon="trash" intent="danger" aria-label={intl.formatMessage({ id: 'groupCard.panel.remove', defaultMessage: "Remove {name}'s signature" }, { name: signature.name })} onClick={() => setRemoving(signature)} />
            </li>
          ))}
        </ul>
      )}
      {groupCard.invitations.length > 0 && (
        <details className="group-card-invitations">
          <summary>
            <FormattedMessage
              id="groupCard.panel.invited"
              defaultMessage="Invited by e-mail ({signed} of {count} signed)"
              values={{ signed: groupCard.invitations.filter((invitation) => invitation.signedAt).length, count: groupCard.invitations.length }}
            />
          </summary>
          <ul>
            {groupCard.invitations.map((invitation) => (
              <li key={invitation.id}>
                <span>{invitation.email}</span>
                <span className="muted">
                  {invitation.signedAt ? (
                    <FormattedMessage id="groupCard.invitation.signed" defaultMessage="signed" />
                  ) : invitation.remindedAt ? (
                    <FormattedMessage id="groupCard.invitation.reminded" defaultMessage="reminded {when}" values={{ when: when(invitation.remindedAt) }} />
                  ) : (
                    <FormattedMessage id="groupCard.invitation.invited" defaultMessage="invited {when}" values={{ when: when(invitation.invitedAt) }} />
                  )}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <InviteDialog isOpen={inviting} onClose={() => setInviting(false)} orderId={orderId} itemId={itemId} left={groupCard.maxInvitations - groupCard.invitations.length} />
      <ExtendDialog isOpen={extending} onClose={() => setExtending(false)} orderId={orderId} itemId={itemId} groupCard={groupCard} />
      <Alert
        isOpen={removing !== null}
        icon="trash"
        intent="danger"
        confirmButtonText={intl.formatMessage({ id: 'groupCard.remove.confirm', defaultMessage: 'Remove' })}
        cancelButtonText={intl.formatMessage(TEXTS.cancel)}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
        canEscapeKeyCancel
      >
        <p>
          <FormattedMessage id="groupCard.remove.question" defaultMessage="Remove {name}'s signature from the card?" values={{ name: removing?.name }} />
        </p>
      </Alert>
    </section>
  );
}
