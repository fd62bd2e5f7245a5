import { useSearchParams } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Card, H1, Spinner } from '@blueprintjs/core';
import { graphql } from '../../apollo/generated';
import { useErrorText } from '../../i18n/input-messages';
import { useShop } from '../../settings/shop-store';
import { StandalonePage } from '../../common/StandalonePage';

export const UnsubscribeLinkQuery = graphql(`
  query UnsubscribeLink($token: String!) {
    unsubscribeLink(token: $token) {
      maskedEmail
      unsubscribed
    }
  }
`);

export const UnsubscribeMutation = graphql(`
  mutation Unsubscribe($token: String!) {
    unsubscribe(token: $token) {
      maskedEmail
      unsubscribed
    }
  }
`);

/**
 * /unsubscribe?token=…, the link of every e-mail to a recipient: "Stop e-mails from Art & Song
 * Cards", "Unsubscribe". Mail programs' one-click POST to the same address unsubscribes without it.
 */
export default function UnsubscribePage() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const link = useQuery(UnsubscribeLinkQuery, { variables: { token }, skip: !token, fetchPolicy: 'network-only' });
  const [unsubscribe, done] = useMutation(UnsubscribeMutation);
  const { name: shopName } = useShop();
  const state = done.data?.unsubscribe ?? link.data?.unsubscribeLink;
  const failure = !token
    ? intl.formatMessage({ id: 'auth.link.noToken', defaultMessage: 'This link has no token in it. Open the link from the e-mail again, whole.' })
    : link.error
      ? errorText(link.error, intl.formatMessage({ id: 'unsubscribe.unreadable', defaultMessage: 'This unsubscribe link could not be read.' }))
      : null;

  return (
    <StandalonePage>
      <Card className="auth-card unsubscribe-card" elevation={2}>
        <div className="auth-form">
          <H1 className="auth-title">
            <FormattedMessage id="unsubscribe.title" defaultMessage="Stop e-mails from {shop}" values={{ shop: shopName }} />
          </H1>
          {failure ? (
            <Callout intent="danger" icon="error" role="alert">
              {failure}
            </Callout>
          ) : !state ? (
            <Spinner size={24} />
          ) : state.unsubscribed ? (
            <Callout intent="success" icon="tick-circle" role="status" title={intl.formatMessage({ id: 'unsubscribe.done.title', defaultMessage: 'You are unsubscribed' })}>
              <FormattedMessage
                id="unsubscribe.done.text"
                defaultMessage="{email} gets no more cards, reminders or invitations sent through {shop}. Nobody can order a card for this address any more."
                values={{ email: state.maskedEmail, shop: shopName }}
              />
            </Callout>
          ) : (
            <>
              <p>
                <FormattedMessage
                  id="unsubscribe.text"
                  defaultMessage="People send e-greeting cards through {shop}. Unsubscribe, and <b>{email}</b> gets no more cards, reminders or signing invitations from this shop, from anyone."
                  values={{ shop: shopName, email: state.maskedEmail, b: (chunks) => <strong>{chunks}</strong> }}
                />
              </p>
              {done.error && (
                <Callout intent="danger" icon="error" className="auth-alert" role="alert">
                  {errorText(done.error, intl.formatMessage({ id: 'unsubscribe.failed', defaultMessage: 'That did not work. Please try again.' }))}
                </Callout>
              )}
              <div className="auth-actions">
                <Button intent="danger" text={intl.formatMessage({ id: 'unsubscribe.button', defaultMessage: 'Unsubscribe' })} size="large" loading={done.loading} onClick={() => void unsubscribe({ variables: { token } }).catch(() => undefined)} />
              </div>
            </>
          )}
        </div>
      </Card>
    </StandalonePage>
  );
}
