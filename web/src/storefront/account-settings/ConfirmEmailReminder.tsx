import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button, Callout, Classes } from '@blueprintjs/core';
import { inputMessage, useErrorText } from '../../i18n/input-messages';
import { MyAccountQuery, ResendEmailConfirmationMutation } from './account-settings-operations';

/**
 * "Confirm your e-mail address" with "Send the link again", while the account's address is not
 * confirmed (on My orders and in Account settings); nothing once it is.
 */
export function ConfirmEmailReminder() {
  const intl = useIntl();
  const errorText = useErrorText();
  const { data } = useQuery(MyAccountQuery, { fetchPolicy: 'cache-and-network' });
  const [resend, { loading }] = useMutation(ResendEmailConfirmationMutation);
  const [said, setSaid] = useState<{ text: string; failed: boolean } | null>(null);
  const account = data?.myAccount;
  if (!account || account.emailConfirmed) return null;

  const again = async () => {
    try {
      const { data: answer } = await resend();
      setSaid({ text: answer?.resendEmailConfirmation.message ? inputMessage(intl, answer.resendEmailConfirmation.message) : intl.formatMessage({ id: 'settings.confirm.sent', defaultMessage: 'We have sent a new link.' }), failed: false });
    } catch (e) {
      setSaid({ text: errorText(e, intl.formatMessage({ id: 'settings.confirm.failed', defaultMessage: 'The link could not be sent. Please try again later.' })), failed: true });
    }
  };

  return (
    // Its title is the page's next heading level (a Callout's own title is an h5, under the page's h1).
    <Callout intent="warning" icon="envelope" className="confirm-email-reminder">
      <h2 className={`${Classes.HEADING} confirm-email-title`}>
        <FormattedMessage id="auth.verify.title" defaultMessage="Confirm your e-mail address" />
      </h2>
      <p>
        <FormattedMessage
          id="settings.confirm.text"
          defaultMessage="We sent a link to <b>{email}</b>. Open it to confirm that the address is yours: orders you placed as a guest with it then appear in My orders too."
          values={{ email: account.email, b: (chunks) => <strong>{chunks}</strong> }}
        />
      </p>
      {said && <p className={said.failed ? 'confirm-email-failed' : 'confirm-email-sent'} role="status">{said.text}</p>}
      <Button icon="send-message" text={intl.formatMessage({ id: 'settings.confirm.again', defaultMessage: 'Send the link again' })} loading={loading} onClick={() => void again()} />
    </Callout>
  );
}
