import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Button, Callout, Card, FormGroup, H1, InputGroup } from '@blueprintjs/core';
import { errorCode, errorField } from '../apollo/errors';
import { inputMessage, useErrorText } from '../i18n/input-messages';
import { StandalonePage } from '../common/StandalonePage';
import { ResetPasswordMutation } from './account-link-operations';
import { authStore } from './auth-store';

/** /reset-password?token=…: "New password", "Set password"; every session of the account ends. */
export default function ResetPasswordPage() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const client = useApolloClient();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<{ text: string; field: boolean; link: boolean } | null>(null);
  const [reset, { loading }] = useMutation(ResetPasswordMutation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const { data } = await reset({ variables: { input: { token, password } } });
      // Every session of the account has ended, this browser's too (if it was signed in).
      authStore.logout();
      await client.clearStore();
      setDone(inputMessage(intl, data?.resetPassword.message ?? intl.formatMessage({ id: 'auth.reset.done', defaultMessage: 'Your password has been set. Sign in with it.' })));
    } catch (e) {
      setError({ text: errorText(e, intl.formatMessage({ id: 'auth.reset.failed', defaultMessage: 'The password could not be set.' })), field: errorField(e) === 'password', link: errorCode(e) === 'TOKEN_INVALID' });
    }
  };

  return (
    <StandalonePage>
      <Card className="auth-card" elevation={2}>
        {done ? (
          <div className="auth-form">
            <H1 className="auth-title">
              <FormattedMessage id="auth.reset.doneTitle" defaultMessage="Password set" />
            </H1>
            <Callout intent="success" icon="tick-circle" className="auth-alert" role="status">
              {done}
            </Callout>
            <p className="muted">
              <FormattedMessage id="auth.reset.signedOut" defaultMessage="Every device that was signed in to your account has been signed out." />
            </p>
            <div className="auth-actions">
              <Button intent="primary" text={intl.formatMessage({ id: 'auth.signIn', defaultMessage: 'Sign in' })} onClick={() => navigate('/login')} />
            </div>
          </div>
        ) : (
          <form onSubmit={submit} className="auth-form" noValidate>
            <H1 className="auth-title">
              <FormattedMessage id="auth.reset.title" defaultMessage="Choose a new password" />
            </H1>
            {!token && (
              <Callout intent="danger" icon="error" className="auth-alert" role="alert">
                <FormattedMessage
                  id="auth.reset.noToken"
                  defaultMessage="This link has no token in it. Open the link from the e-mail again, whole, or <link>ask for a new one</link>."
                  values={{ link: (chunks) => <Link to="/forgot-password">{chunks}</Link> }}
                />
              </Callout>
            )}
            {error && !error.field && (
              <Callout intent="danger" icon="error" className="auth-alert" role="alert">
                {error.text}{' '}
                {error.link && (
                  <Link to="/forgot-password">
                    <FormattedMessage id="auth.reset.newLink" defaultMessage="Ask for a new link" />
                  </Link>
                )}
              </Callout>
            )}
            <FormGroup
              label={intl.formatMessage({ id: 'auth.newPassword', defaultMessage: 'New password' })}
              labelFor="reset-password"
              intent={error?.field ? 'danger' : 'none'}
              helperText={error?.field ? error.text : intl.formatMessage({ id: 'auth.reset.help', defaultMessage: 'At least 8 characters. Every device signed in to your account will be signed out.' })}
            >
              <InputGroup id="reset-password" type="password" autoComplete="new-password" value={password} onValueChange={setPassword} required minLength={8} size="large" autoFocus intent={error?.field ? 'danger' : 'none'} />
            </FormGroup>
            <div className="auth-actions">
              <Button type="submit" intent="primary" text={intl.formatMessage({ id: 'auth.reset.submit', defaultMessage: 'Set password' })} loading={loading} disabled={!token} />
            </div>
          </form>
        )}
      </Card>
    </StandalonePage>
  );
}
