import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Classes } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
import { MyAccountQuery, ResendEmailConfirmationMutation } from './account-settings-operations';

/**
 * "Confirm your e-mail address" with "Send the link again", while the account's address is not
 * confirmed (on My orders and in Account settings); nothing once it is.
 */
export function ConfirmEmailReminder() {
  const { data } = useQuery(MyAccountQuery, { fetchPolicy: 'cache-and-network' });
  const [resend, { loading }] = useMutation(ResendEmailConfirmationMutation);
  const [said, setSaid] = useState<{ text: string; failed: boolean } | null>(null);
  const account = data?.myAccount;
  if (!account || account.emailConfirmed) return null;

  const again = async () => {
    try {
      const { data: answer } = await resend();
      setSaid({ text: answer?.resendEmailConfirmation.message ?? 'We have sent a new link.', failed: false });
    } catch (e) {
      setSaid({ text: errorMessage(e, 'The link could not be sent. Please try again later.'), failed: true });
    }
  };

  return (
    // Its title is the page's next heading level (a Callout's own title is an h5, under the page's h1).
    <Callout intent="warning" icon="envelope" className="confirm-email-reminder">
      <h2 className={`${Classes.HEADING} confirm-email-title`}>Confirm your e-mail address</h2>
      <p>
        We sent a link to <strong>{account.email}</strong>. Open it to confirm that the address is yours: orders you placed as a guest with it then appear in My orders too.
      </p>
      {said && <p className={said.failed ? 'confirm-email-failed' : 'confirm-email-sent'} role="status">{said.text}</p>}
      <Button icon="send-message" text="Send the link again" loading={loading} onClick={() => void again()} />
    </Callout>
  );
}
