import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Card, Checkbox, FormGroup, H1, InputGroup, Tab, Tabs } from '@blueprintjs/core';
import { useErrorText } from '../i18n/input-messages';
import { RegisterMutation, returnPath, useSignIn } from './use-sign-in';
import { StandalonePage } from '../common/StandalonePage';

/** Sign in (and, for a new shopper, create an account). */
export default function LoginPage() {
  const intl = useIntl();
  const [tab, setTab] = useState<'login' | 'register'>('login');
  return (
    <StandalonePage>
      <Card className="auth-card" elevation={2}>
        <Tabs id="auth-tabs" selectedTabId={tab} onChange={(id) => setTab(id as 'login' | 'register')} size="large" renderActiveTabPanelOnly>
          <Tab id="login" title={intl.formatMessage({ id: 'auth.signIn', defaultMessage: 'Sign in' })} panel={<LoginForm />} />
          <Tab id="register" title={intl.formatMessage({ id: 'auth.register.title', defaultMessage: 'Create an account' })} panel={<RegisterForm />} />
        </Tabs>
      </Card>
    </StandalonePage>
  );
}

function LoginForm() {
  const intl = useIntl();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const location = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const { signIn, loading } = useSignIn();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await signIn({ username, password, remember });
      navigate(returnPath(location), { replace: true });
    } catch (e) {
      setError(errorText(e, intl.formatMessage({ id: 'auth.login.failed', defaultMessage: 'Login failed' })));
    }
  };

  return (
    <form onSubmit={submit} className="auth-form">
      <H1 className="auth-title">
        <FormattedMessage id="auth.login.title" defaultMessage="Login" />
      </H1>
      {error && (
        <Callout intent="danger" icon="error" className="auth-alert" role="alert">
          <div className="auth-alert-row">
            <span>{error}</span>
            <Button variant="minimal" size="small" icon="cross" aria-label={intl.formatMessage({ id: 'auth.close', defaultMessage: 'Close' })} onClick={() => setError(null)} />
          </div>
        </Callout>
      )}
      <FormGroup label={intl.formatMessage({ id: 'auth.username', defaultMessage: 'Username' })} labelFor="login-username" helperText={intl.formatMessage({ id: 'auth.login.usernameHelp', defaultMessage: 'or your e-mail address' })}>
        <InputGroup id="login-username" name="username" autoComplete="username" value={username} onValueChange={setUsername} autoFocus required size="large" />
      </FormGroup>
      <FormGroup
        label={intl.formatMessage({ id: 'auth.password', defaultMessage: 'Password' })}
        labelFor="login-password"
        helperText={
          <Link to="/forgot-password">
            <FormattedMessage id="auth.login.forgot" defaultMessage="Forgot password?" />
          </Link>
        }
      >
        <InputGroup id="login-password" name="password" type="password" autoComplete="current-password" value={password} onValueChange={setPassword} required size="large" />
      </FormGroup>
      <Checkbox className="auth-remember" label={intl.formatMessage({ id: 'auth.login.remember', defaultMessage: 'Keep me signed in' })} checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
      <div className="auth-actions">
        <Button text={intl.formatMessage({ id: 'account.cancel', defaultMessage: 'Cancel' })} variant="outlined" onClick={() => navigate('/')} />
        <Button type="submit" intent="primary" text={intl.formatMessage({ id: 'auth.login.title', defaultMessage: 'Login' })} loading={loading} />
      </div>
    </form>
  );
}

/** Creates the account, then signs in with it (remembered in this browser) and goes back to where the shopper was. */
function RegisterForm() {
  const intl = useIntl();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const location = useLocation();
  const { signIn, loading: signingIn } = useSignIn();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<{ intent: 'success' | 'danger'; text: string } | null>(null);
  const [register, { loading }] = useMutation(RegisterMutation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    try {
      await register({ variables: { input: { username, email, password } } });
    } catch (e) {
      setOutcome({ intent: 'danger', text: errorText(e, intl.formatMessage({ id: 'auth.register.failed', defaultMessage: 'Registration failed' })) });
      return;
    }
    window.alert(intl.formatMessage({ id: 'auth.register.done', defaultMessage: 'Successfully registered with email {email}' }, { email: email.trim().toLowerCase() }));
    try {
      await signIn({ username, password, remember: true });
      navigate(returnPath(location), { replace: true });
    } catch (e) {
      setOutcome({ intent: 'danger', text: errorText(e, intl.formatMessage({ id: 'auth.register.failed', defaultMessage: 'Registration failed' })) });
    }
  };

  return (
    <form onSubmit={submit} className="auth-form">
      <H1 className="auth-title">
        <FormattedMessage id="auth.register.title" defaultMessage="Create an account" />
      </H1>
      {outcome && (
        <Callout intent={outcome.intent} className="auth-alert" role="alert">
          <div className="auth-alert-row">
            <span>{outcome.text}</span>
            <Button variant="minimal" size="small" icon="cross" aria-label={intl.formatMessage({ id: 'auth.close', defaultMessage: 'Close' })} onClick={() => setOutcome(null)} />
          </div>
        </Callout>
      )}
      <FormGroup label={intl.formatMessage({ id: 'auth.username', defaultMessage: 'Username' })} labelFor="register-username" helperText={intl.formatMessage({ id: 'auth.username.help', defaultMessage: "3 to 32 letters, digits, '_', '.' or '-'." })}>
        <InputGroup id="register-username" autoComplete="username" value={username} onValueChange={setUsername} required />
      </FormGroup>
      <FormGroup label={intl.formatMessage({ id: 'auth.email', defaultMessage: 'E-mail' })} labelFor="register-email">
        <InputGroup id="register-email" type="email" autoComplete="email" value={email} onValueChange={setEmail} required />
      </FormGroup>
      <FormGroup label={intl.formatMessage({ id: 'auth.password', defaultMessage: 'Password' })} labelFor="register-password" helperText={intl.formatMessage({ id: 'auth.password.help', defaultMessage: 'At least 8 characters.' })}>
        <InputGroup id="register-password" type="password" autoComplete="new-password" value={password} onValueChange={setPassword} required minLength={8} />
      </FormGroup>
      <div className="auth-actions">
        <Button type="submit" intent="primary" text={intl.formatMessage({ id: 'auth.register.submit', defaultMessage: 'Create account' })} loading={loading || signingIn} />
      </div>
    </form>
  );
}
