import { useEffect, useState } from 'react';
import { Button, Callout, Classes, Dialog, DialogFooter, Spinner } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useAuth } from '../../auth/auth-store';
import type { CardPersonalisation } from '../cart/cart-lines';
import { fetchPreview, sendTestToMyself, type PreviewAnswer } from './preview-requests';
import './recipient-preview.css';

/**
 * "Preview": the e-card page exactly as the first recipient will open it (the shop draws it with the
 * real page's renderer, a "Preview" ribbon across its corner), in a frame over the page the shopper
 * is on; signed-in shoppers can send its e-mail to themselves. Nothing is recorded.
 */
export default function RecipientPreviewDialog({ productId, personalisation, onClose }: { productId: number; personalisation: CardPersonalisation; onClose: () => void }) {
  const { user } = useAuth();
  const intl = useIntl();
  const [answer, setAnswer] = useState<PreviewAnswer | null>(null);
  const [test, setTest] = useState<{ state: 'sending' } | { state: 'sent'; text: string } | { state: 'refused'; text: string } | null>(null);
  useEffect(() => {
    let live = true;
    void fetchPreview(productId, personalisation).then((result) => live && setAnswer(result));
    return () => {
      live = false;
    };
  }, [productId, personalisation]);

  const recipient = personalisation.recipients[0]?.name || intl.formatMessage({ id: 'preview.yourRecipient', defaultMessage: 'your recipient' });
  const send = async () => {
    setTest({ state: 'sending' });
    const sent = await sendTestToMyself(productId, personalisation);
    setTest(sent.ok ? { state: 'sent', text: intl.formatMessage({ id: 'preview.sent', defaultMessage: 'Sent to {to}: the e-mail {recipient} will get, with its link.' }, { to: sent.to, recipient }) } : { state: 'refused', text: sent.message });
  };

  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'preview.title', defaultMessage: 'Preview: as {recipient} will see it' }, { recipient })} className="recipient-preview-dialog" icon="eye-open">
      <div className={`${Classes.DIALOG_BODY} recipient-preview-body`}>
        {!answer ? (
          <Spinner aria-label={intl.formatMessage({ id: 'preview.loading', defaultMessage: 'Loading the preview' })} />
        ) : answer.ok ? (
          <iframe className="recipient-preview-frame" title={intl.formatMessage({ id: 'preview.frame', defaultMessage: 'The card as {recipient} will see it' }, { recipient })} srcDoc={answer.html} />
        ) : (
          <Callout intent="danger" icon="error" title={intl.formatMessage({ id: 'preview.refused', defaultMessage: 'The card cannot be previewed yet' })}>
            {answer.message}
          </Callout>
        )}
      </div>
      <DialogFooter
        minimal
        actions={
          <>
            {user && <Button icon="envelope" text={intl.formatMessage({ id: 'preview.sendTest', defaultMessage: 'Send a test to myself' })} loading={test?.state === 'sending'} disabled={!answer?.ok} onClick={() => void send()} />}
            <Button intent="primary" text={intl.formatMessage({ id: 'preview.done', defaultMessage: 'Done' })} onClick={onClose} />
          </>
        }
      >
        {test && test.state !== 'sending' && (
          <span role="status" className={test.state === 'refused' ? Classes.INTENT_DANGER : undefined}>
            {test.text}
          </span>
        )}
      </DialogFooter>
    </Dialog>
  );
}
