import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { graphql } from '../apollo/generated';
import { errorMessage } from '../apollo/errors';
import { authStore } from './auth-store';
import { toaster } from '../common/toaster';

export const ChangePasswordMutation = graphql(`
  mutation ChangePassword($input: ChangePasswordInput!) {
    changePassword(input: $input) {
      message
      token
    }
  }
`);

/** Changes the password; every other session ends, this one continues with the fresh token. */
export function ChangePasswordDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const [newPassword, setNewPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [changePassword, { loading }] = useMutation(ChangePasswordMutation);

  const close = () => {
    setNewPassword('');
    setError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const { data } = await changePassword({ variables: { input: { newPassword } } });
      if (!data) throw new Error();
      authStore.login(data.changePassword.token);
      (await toaster()).show({ message: data.changePassword.message, intent: 'success', timeout: 3000 });
      close();
    } catch (e) {
      setError(errorMessage(e, 'Password change failed'));
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} title="Change password" icon="key">
      <form onSubmit={submit}>
        <DialogBody>
          {error && (
            <Callout intent="danger" icon="error" role="alert" className="dialog-alert">
              {error}
            </Callout>
          )}
          <FormGroup label="New password" labelFor="new-password" helperText="At least 8 characters. Your other sessions will be signed out.">
            <InputGroup id="new-password" type="password" autoComplete="new-password" value={newPassword} onValueChange={setNewPassword} autoFocus required />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={[<Button key="cancel" text="Cancel" onClick={close} />, <Button key="save" type="submit" intent="primary" text="Change password" loading={loading} />]} />
      </form>
    </Dialog>
  );
}
