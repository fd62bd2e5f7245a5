import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { errorField, errorMessage } from '../../apollo/errors';
import { authStore } from '../../auth/auth-store';
import { snackbar } from '../../common/toaster';
import { DeleteAccountMutation } from './account-settings-operations';

/** "Delete my account": the password again, then the account is gone and this browser signed out. */
export function DeleteAccountDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const navigate = useNavigate();
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
      void snackbar('Your account was deleted.');
    } catch (e) {
      setError({ text: errorMessage(e, 'The account could not be deleted.'), field: errorField(e) === 'password' });
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} title="Delete my account" icon="trash" className="settings-delete-dialog">
      <form onSubmit={submit} noValidate>
        <DialogBody>
          <p>This cannot be undone.</p>
          <ul className="settings-delete-list">
            <li>Your account, your sign-in and your address book are removed.</li>
            <li>Your orders stay in the shop&rsquo;s books, without your name or your e-mail address, and you can no longer see them.</li>
            <li>Cards that have not gone out yet are still delivered, without your name.</li>
          </ul>
          {error && !error.field && (
            <Callout intent="danger" icon="error" role="alert" className="dialog-alert">
              {error.text}
            </Callout>
          )}
          <FormGroup label="Password" labelFor="delete-password" intent={error?.field ? 'danger' : 'none'} helperText={error?.field ? error.text : 'Type your password to confirm.'}>
            <InputGroup id="delete-password" type="password" autoComplete="current-password" value={password} onValueChange={setPassword} required autoFocus intent={error?.field ? 'danger' : 'none'} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={close} />
              <Button type="submit" intent="danger" text="Delete my account" loading={loading} disabled={!password} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
