import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Callout, Card, H1, Spinner } from '@blueprintjs/core';
import { errorMessage } from '../apollo/errors';
import { StandalonePage } from '../common/StandalonePage';
import { VerifyEmailMutation } from './account-link-operations';
import { authStore, useAuth } from './auth-store';

type Outcome = { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/** /verify-email?token=…: confirms the address the link went to (the account's, or its new one) as the page opens. */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const client = useApolloClient();
  const auth = useAuth();
  const [verify] = useMutation(VerifyEmailMutation);
  const [outcome, setOutcome] = useState<Outcome>(token ? { kind: 'working' } : { kind: 'failed', message: 'This link has no token in it. Open the link from the e-mail again, whole.' });
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
        setOutcome({ kind: 'done', message: answer.message });
      })
      .catch((e: unknown) => setOutcome({ kind: 'failed', message: errorMessage(e, 'The address could not be confirmed.') }));
  }, [token, verify, client]);

  return (
    <StandalonePage>
      <Card className="auth-card" elevation={2}>
        <div className="auth-form">
          <H1 className="auth-title">Confirm your e-mail address</H1>
          {outcome.kind === 'working' && (
            <div className="auth-working">
              <Spinner size={20} /> <span>Confirming your address…</span>
            </div>
          )}
          {outcome.kind === 'done' && (
            <>
              <Callout intent="success" icon="tick-circle" className="auth-alert" role="status">
                {outcome.message}
              </Callout>
              <p className="muted">Orders you placed as a guest with this address now appear in My orders.</p>
              <p>{auth.user ? <Link to="/account">Go to My orders</Link> : <Link to="/login">Sign in to see your orders</Link>}</p>
            </>
          )}
          {outcome.kind === 'failed' && (
            <>
              <Callout intent="danger" icon="error" className="auth-alert" role="alert">
                {outcome.message}
              </Callout>
              <p className="muted">A signed-in account asks for a new link on My orders (&ldquo;Send the link again&rdquo;) or in Account settings.</p>
            </>
          )}
        </div>
      </Card>
    </StandalonePage>
  );
}
