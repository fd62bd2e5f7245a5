import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Card, FormGroup, H1, InputGroup } from '@blueprintjs/core';
import { errorField } from '../apollo/errors';
import { inputMessage, useErrorText } from '../i18n/input-messages';
import { StandalonePage } from '../common/StandalonePage';
import { RequestPasswordResetMutation } from './account-link-operations';

/** /forgot-password: "Send reset link". The answer is the same whether or not an account uses the address. */
export default function ForgotPasswordPage() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<{ text: string; field: boolean } | null>(null);
  const [request, { loading }] = useMutation(RequestPasswordResetMutation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSent(null);
    try {
      const { data } = await request({ variables: { input: { email } } });
      setSent(inputMessage(intl, data?.requestPasswordReset.message ?? intl.formatMessage({ id: 'auth.forgot.sent', defaultMessage: 'If an account uses that address, we have sent it a link.' })));
    } catch (e) {
      setError({ text: errorText(e, intl.formatMessage({ id: 'auth.forgot.failed', defaultMessage: 'The link could not be sent. Please try again.' })), field: errorField(e) === 'email' });
    }
  };

  return (
    <StandalonePage>
      <Card className="auth-card" elevation={2}>
        <form onSubmit={submit} className="auth-form" noValidate>
          <H1 className="auth-title">
            <FormattedMessage id="auth.forgot.title" defaultMessage="Forgot your password?" />
          </H1>
          <p className="muted">
            <FormattedMessage id="auth.forgot.text" defaultMessage="Type the e-mail address of your account. We will send it a link to choose a new password; the link works for an hour." />
          </p>
          {sent && (
            <Callout intent="success" icon="envelope" className="auth-alert" role="status">
              {sent}
            </Callout>
          )}
          {error && !error.field && (
            <Callout intent="danger" icon="error" className="auth-alert" role="alert">
              {error.text}
            </Callout>
          )}
          <FormGroup label={intl.formatMessage({ id: 'auth.email', defaultMessage: 'E-mail' })} labelFor="forgot-email" intent={error?.field ? 'danger' : 'none'} helperText={error?.field ? error.text : undefined}>
            <InputGroup id="forgot-email" type="email" autoComplete="email" value={email} onValueChange={setEmail} required size="large" autoFocus intent={error?.field ? 'danger' : 'none'} />
          </FormGroup>
          <div className="auth-actions auth-actions-spread">
            <Link to="/login">
              <FormattedMessage id="auth.forgot.back" defaultMessage="Back to sign in" />
            </Link>
            <Button type="submit" intent="primary" text={intl.formatMessage({ id: 'auth.forgot.submit', defaultMessage: 'Send reset link' })} loading={loading} />
          </div>
        </form>
      </Card>
    </StandalonePage>
  );
}
