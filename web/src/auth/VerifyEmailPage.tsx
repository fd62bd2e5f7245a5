import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Callout, Card, H1, Spinner } from '@blueprintjs/core';
import { inputMessage, useErrorText } from '../i18n/input-messages';
import { StandalonePage } from '../common/StandalonePage';
import { VerifyEmailMutation } from './account-link-operations';
import { authStore, useAuth } from './auth-store';

type Outcome = { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/** /verify-email?token=…: confirms the address the link went to (the account's, or its new one) as the page opens. */
export default function VerifyEmailPage() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const client = useApolloClient();
  const auth = useAuth();
  const [verify] = useMutation(VerifyEmailMutation);
  const [outcome, setOutcome] = useState<Outcome>(token ? { kind: 'working' } : { kind: 'failed', message: intl.formatMessage({ id: 'auth.link.noToken', defaultMessage: 'This link has no token in it. Open the link from the e-mail again, whole.' }) });
  // A link works once: the page asks once, whatever re-renders.
  const asked = useRef(false);

  useEffect(() => {
    if (!token || asked.current) return;
    asked.current = true;
    verify({ variables: { token } })
      .then(async ({ data }) => {
        const answer = data!.verifyEmail;
        // Opened in a signed-in session of the same account: it continues under the new address.
        if (answer.token) authStore.login(answer.token);
        await client.refetchQueries({ include: 'active' }).catch(() => undefined);
        setOutcome({ kind: 'done', message: inputMessage(intl, answer.message) });
      })
      .catch((e: unknown) => setOutcome({ kind: 'failed', message: errorText(e, intl.formatMessage({ id: 'auth.verify.failed', defaultMessage: 'The address could not be confirmed.' })) }));
  }, [token, verify, client]);

  return (
    <StandalonePage>
      <Card className="auth-card" elevation={2}>
        <div className="auth-form">
          <H1 className="auth-title">
            <FormattedMessage id="auth.verify.title" defaultMessage="Confirm your e-mail address" />
          </H1>
          {outcome.kind === 'working' && (
            <div className="auth-working">
              <Spinner size={20} /> <span>
                <FormattedMessage id="auth.verify.working" defaultMessage="Confirming your address…" />
              </span>
            </div>
          )}
          {outcome.kind === 'done' && (
            <>
              <Callout intent="success" icon="tick-circle" className="auth-alert" role="status">
                {outcome.message}
              </Callout>
              <p className="muted">
                <FormattedMessage id="auth.verify.orders" defaultMessage="Orders you placed as a guest with this address now appear in My orders." />
              </p>
              <p>
                {auth.user ? (
                  <Link to="/account">
                    <FormattedMessage id="auth.verify.toOrders" defaultMessage="Go to My orders" />
                  </Link>
                ) : (
                  <Link to="/login">
                    <FormattedMessage id="auth.verify.signIn" defaultMessage="Sign in to see your orders" />
                  </Link>
                )}
              </p>
            </>
          )}
          {outcome.kind === 'failed' && (
            <>
              <Callout intent="danger" icon="error" className="auth-alert" role="alert">
                {outcome.message}
              </Callout>
              <p className="muted">
                <FormattedMessage id="auth.verify.again" defaultMessage="A signed-in account asks for a new link on My orders (“Send the link again”) or in Account settings." />
              </p>
            </>
          )}
        </div>
      </Card>
    </StandalonePage>
  );
}
