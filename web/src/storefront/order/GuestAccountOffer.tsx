import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { errorField } from '../../apollo/errors';
import { useErrorText } from '../../i18n/input-messages';
import { RegisterMutation, useSignIn } from '../../auth/use-sign-in';

/** A username to start from: the address's local part, in the characters a username may use. */
function suggestedUsername(email: string): string {
  const local = email.split('@')[0] ?? '';
  const cleaned = local.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 32);
  return cleaned.length >= 3 ? cleaned : '';
}

/**
 * The guest's offer on the confirmation page: an account with the order's address filled in, a
 * password to choose. It signs in at once; the order joins the account once the address is
 * confirmed (the link the shop sends to it), as every guest order to that address does.
 */
export function GuestAccountOffer({ email, onCreated }: { email: string; onCreated: () => void }) {
  const intl = useIntl();
  const errorText = useErrorText();
  const [username, setUsername] = useState(() => suggestedUsername(email));
  const [address, setAddress] = useState(email);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<{ text: string; field?: string } | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [register, { loading }] = useMutation(RegisterMutation);
  const { signIn, loading: signingIn } = useSignIn();

  /** A field changed: its own error has been answered. */
  const edited = (set: (value: string) => void, value: string, field: string) => {
    set(value);
    if (error?.field === field) setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await register({ variables: { input: { username, email: address, password } } });
    } catch (failure) {
      setError({ text: errorText(failure, intl.formatMessage({ id: 'order.offer.failed', defaultMessage: 'The account could not be created.' })), field: errorField(failure) });
      return;
    }
    onCreated();
    try {
      await signIn({ username, password, remember: true });
    } catch {
      // The account exists; signing in by hand works as well.
    }
    setCreated(address.trim().toLowerCase());
  };

  if (created) {
    return (
      <Callout intent="success" icon="user" title={intl.formatMessage({ id: 'order.offer.ready', defaultMessage: 'Your account is ready' })} className="confirmation-offer" role="status">
        <FormattedMessage
          id="order.offer.readyText"
          defaultMessage="We sent a link to {email}. Open it to confirm the address, and this order appears in <link>My orders</link>, where you can change a card's date or send it again."
          values={{ email: created, link: (chunks) => <Link to="/account">{chunks}</Link> }}
        />
      </Callout>
    );
  }

  return (
    <Card className="confirmation-offer" role="region" aria-labelledby="offer-title">
      <h2 id="offer-title">
        <FormattedMessage id="order.offer.title" defaultMessage="Keep track of your cards" />
      </h2>
      <p className="muted">
        <FormattedMessage
          id="order.offer.text"
          defaultMessage="With an account you can change a card's delivery date, send it again, and see every order in one place. This order joins it once you confirm your address."
        />
      </p>
      <form onSubmit={submit} className="confirmation-offer-form" noValidate>
        {error && !error.field && (
          <Callout intent="danger" icon="error" role="alert" className="confirmation-offer-error">
            {error.text}
          </Callout>
        )}
        <FormGroup label={intl.formatMessage({ id: 'auth.email', defaultMessage: 'E-mail' })} labelFor="offer-email" intent={error?.field === 'email' ? 'danger' : 'none'} helperText={error?.field === 'email' ? error.text : undefined}>
          <InputGroup id="offer-email" type="email" autoComplete="email" value={address} onValueChange={(value) => edited(setAddress, value, 'email')} required />
        </FormGroup>
        <FormGroup
          label={intl.formatMessage({ id: 'auth.username', defaultMessage: 'Username' })}
          labelFor="offer-username"
          intent={error?.field === 'username' ? 'danger' : 'none'}
          helperText={error?.field === 'username' ? error.text : intl.formatMessage({ id: 'auth.username.help', defaultMessage: "3 to 32 letters, digits, '_', '.' or '-'." })}
        >
          <InputGroup id="offer-username" autoComplete="username" value={username} onValueChange={(value) => edited(setUsername, value, 'username')} required />
        </FormGroup>
        <FormGroup
          label={intl.formatMessage({ id: 'order.offer.password', defaultMessage: 'Choose a password' })}
          labelFor="offer-password"
          intent={error?.field === 'password' ? 'danger' : 'none'}
          helperText={error?.field === 'password' ? error.text : intl.formatMessage({ id: 'auth.password.help', defaultMessage: 'At least 8 characters.' })}
        >
          <InputGroup id="offer-password" type="password" autoComplete="new-password" value={password} onValueChange={(value) => edited(setPassword, value, 'password')} required minLength={8} />
        </FormGroup>
        <Button type="submit" intent="primary" icon="new-person" text={intl.formatMessage({ id: 'auth.register.title', defaultMessage: 'Create an account' })} loading={loading || signingIn} />
      </form>
    </Card>
  );
}
