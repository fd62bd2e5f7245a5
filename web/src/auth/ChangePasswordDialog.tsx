import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { useIntl } from 'react-intl';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { graphql } from '../apollo/generated';
import { errorCode, errorField } from '../apollo/errors';
import { inputMessage, useErrorText } from '../i18n/input-messages';
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

type Field = 'currentPassword' | 'newPassword';

/** Where an error belongs: on one of the fields, or above them. REAUTHENTICATE asks for the current password, so it is said there. */
function placeOf(error: unknown): Field | null {
  if (errorCode(error) === 'REAUTHENTICATE') return 'currentPassword';
  const field = errorField(error);
  return field === 'currentPassword' || field === 'newPassword' ? field : null;
}

/** Changes the password (the current one first); every other session ends, this one continues with the fresh token. */
export function ChangePasswordDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const intl = useIntl();
  const errorText = useErrorText();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [error, setError] = useState<{ text: string; field: Field | null } | null>(null);
  const [changePassword, { loading }] = useMutation(ChangePasswordMutation);

  const close = () => {
    setCurrentPassword('');
    setNewPassword('');
    setError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const { data } = await changePassword({ variables: { input: { currentPassword, newPassword } } });
      if (!data) throw new Error();
      authStore.login(data.changePassword.token);
      (await toaster()).show({ message: inputMessage(intl, data.changePassword.message), intent: 'success', timeout: 3000 });
      close();
    } catch (e) {
      setError({ text: errorText(e, intl.formatMessage({ id: 'auth.changePassword.failed', defaultMessage: 'Password change failed' })), field: placeOf(e) });
    }
  };

  const on = (field: Field) => (error?.field === field ? error.text : null);

  return (
    <Dialog isOpen={isOpen} onClose={close} title={intl.formatMessage({ id: 'auth.changePassword', defaultMessage: 'Change password' })} icon="key">
      <form onSubmit={submit} noValidate>
        <DialogBody>
          {error && !error.field && (
            <Callout intent="danger" icon="error" role="alert" className="dialog-alert">
              {error.text}
            </Callout>
          )}
          <FormGroup label={intl.formatMessage({ id: 'auth.currentPassword', defaultMessage: 'Current password' })} labelFor="current-password" intent={on('currentPassword') ? 'danger' : 'none'} helperText={on('currentPassword')}>
            <InputGroup
              id="current-password"
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              onValueChange={setCurrentPassword}
              autoFocus
              required
              intent={on('currentPassword') ? 'danger' : 'none'}
            />
          </FormGroup>
          <FormGroup
            label={intl.formatMessage({ id: 'auth.newPassword', defaultMessage: 'New password' })}
            labelFor="new-password"
            intent={on('newPassword') ? 'danger' : 'none'}
            helperText={on('newPassword') ?? intl.formatMessage({ id: 'auth.changePassword.help', defaultMessage: 'At least 8 characters. Your other sessions will be signed out.' })}
          >
            <InputGroup id="new-password" type="password" autoComplete="new-password" value={newPassword} onValueChange={setNewPassword} required intent={on('newPassword') ? 'danger' : 'none'} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={[
            <Button key="cancel" text={intl.formatMessage({ id: 'account.cancel', defaultMessage: 'Cancel' })} onClick={close} />,
            <Button key="save" type="submit" intent="primary" text={intl.formatMessage({ id: 'auth.changePassword', defaultMessage: 'Change password' })} loading={loading} disabled={!currentPassword || !newPassword} />,
          ]}
        />
      </form>
    </Dialog>
  );
}
