import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Button, Callout, Card, FormGroup, H1, InputGroup } from '@blueprintjs/core';
import { graphql } from '../apollo/generated';
import { errorField, errorMessage } from '../apollo/errors';
import { authStore } from './auth-store';
import { refreshSettings } from '../settings/refresh-settings';
import { StandalonePage } from '../common/StandalonePage';
import { useShop } from '../settings/shop-store';

export const AcceptStaffInvitationMutation = graphql(`
  mutation AcceptStaffInvitation($input: AcceptStaffInvitationInput!) {
    acceptStaffInvitation(input: $input) {
      token
      user {
        id
        username
        role
      }
    }
  }
`);

/** /staff/accept?token=…: the invited person chooses a username and a password, and is signed in. */
export default function StaffAcceptPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const client = useApolloClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [accept, { loading }] = useMutation(AcceptStaffInvitationMutation);
  const { name: shopName } = useShop();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setFields({});
    try {
      const { data } = await accept({ variables: { input: { token, username, password } } });
      if (!data) throw new Error('The invitation could not be accepted');
      authStore.login(data.acceptStaffInvitation.token);
      await refreshSettings(client);
      navigate('/admindash');
    } catch (e) {
      const field = errorField(e);
      if (field === 'username' || field === 'password') setFields({ [field]: errorMessage(e, 'Not valid') });
      else setError(errorMessage(e, 'The invitation could not be accepted'));
    }
  };

  return (
    <StandalonePage>
      <Card className="auth-card" elevation={2}>
        <form onSubmit={submit} className="auth-form">
          <H1 className="auth-title">Join the team</H1>
          <p className="muted">You were invited to help run {shopName}. Choose a username and a password for your account.</p>
          {!token && (
            <Callout intent="danger" icon="error" className="auth-alert" role="alert">
              This link has no invitation in it. Open the link from your invitation e-mail.
            </Callout>
          )}
          {error && (
            <Callout intent="danger" icon="error" className="auth-alert" role="alert">
              {error}
            </Callout>
          )}
          <FormGroup label="Username" labelFor="accept-username" intent={fields.username ? 'danger' : 'none'} helperText={fields.username ?? "3 to 32 characters: letters, digits, '_', '.' or '-'."}>
            <InputGroup id="accept-username" autoComplete="username" value={username} onValueChange={setUsername} required size="large" intent={fields.username ? 'danger' : 'none'} autoFocus />
          </FormGroup>
          <FormGroup label="Password" labelFor="accept-password" intent={fields.password ? 'danger' : 'none'} helperText={fields.password ?? 'At least 8 characters.'}>
            <InputGroup id="accept-password" type="password" autoComplete="new-password" value={password} onValueChange={setPassword} required size="large" intent={fields.password ? 'danger' : 'none'} />
          </FormGroup>
          <div className="auth-actions">
            <Button type="submit" intent="primary" text="Create account" loading={loading} disabled={!token} />
          </div>
        </form>
      </Card>
    </StandalonePage>
  );
}
