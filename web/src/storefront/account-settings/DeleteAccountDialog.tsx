import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { errorField } from '../../apollo/errors';
import { useErrorText } from '../../i18n/input-messages';
import { authStore } from '../../auth/auth-store';
import { snackbar } from '../../common/toaster';
import { DeleteAccountMutation } from './account-settings-operations';

/** "Delete my account": the password again, then the account is gone and this browser signed out. */
export function DeleteAccountDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const intl = useIntl();
  const errorText = useErrorText();
  const client = useApolloClient();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<{ text: string; field: boolean } | null>(null);
  const [remove, { loading }] = useMutation(DeleteAccountMutation);

  const close = () => {
    setPassword('');
    setError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await remove({ variables: { input: { password } } });
      authStore.logout();
      await client.clearStore();
      navigate('/', { replace: true });
      void snackbar(intl.formatMessage({ id: 'settings.delete.done', defaultMessage: 'Your account was deleted.' }));
    } catch (e) {
      setError({ text: errorText(e, intl.formatMessage({ id: 'settings.delete.failed', defaultMessage: 'The account could not be deleted.' })), field: errorField(e) === 'password' });
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} title={intl.formatMessage({ id: 'settings.delete.title', defaultMessage: 'Delete my account' })} icon="trash" className="settings-delete-dialog">
      <form onSubmit={submit} noValidate>
        <DialogBody>
          <p>
            <FormattedMessage id="settings.delete.undone" defaultMessage="This cannot be undone." />
          </p>
          <ul className="settings-delete-list">
            <li>
              <FormattedMessage id="settings.delete.account" defaultMessage="Your account, your sign-in and your address book are removed." />
            </li>
            <li>
              <FormattedMessage id="settings.delete.orders" defaultMessage="Your orders stay in the shop’s books, without your name or your e-mail address, and you can no longer see them." />
            </li>
            <li>
              <FormattedMessage id="settings.delete.cards" defaultMessage="Cards that have not gone out yet are still delivered, without your name." />
            </li>
          </ul>
          {error && !error.field && (
            <Callout intent="danger" icon="error" role="alert" className="dialog-alert">
              {error.text}
            </Callout>
          )}
          <FormGroup
            label={intl.formatMessage({ id: 'auth.password', defaultMessage: 'Password' })}
            labelFor="delete-password"
            intent={error?.field ? 'danger' : 'none'}
            helperText={error?.field ? error.text : intl.formatMessage({ id: 'settings.delete.password', defaultMessage: 'Type your password to confirm.' })}
          >
            <InputGroup id="delete-password" type="password" autoComplete="current-password" value={password} onValueChange={setPassword} required autoFocus intent={error?.field ? 'danger' : 'none'} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={intl.formatMessage({ id: 'account.cancel', defaultMessage: 'Cancel' })} onClick={close} />
              <Button type="submit" intent="danger" text={intl.formatMessage({ id: 'settings.delete.title', defaultMessage: 'Delete my account' })} loading={loading} disabled={!password} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
