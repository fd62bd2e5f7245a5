import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Card, Spinner } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorMessage } from '../../apollo/errors';
import { EmptyState } from '../../common/EmptyState';
import { formatPrice } from '../common/price';
import { GiftCardPageQuery } from './gift-card-page-operations';
import '../common/storefront.css';
import './gift-cards.css';

/**
 * /gift-card#CODE: the page a gift card's e-mail links to. The code travels in the address's
 * fragment, which the browser never sends to the shop's server or its logs; the page asks the shop
 * for the card by it (a look-up, counted like any other).
 */
export default function GiftCardPage() {
  const intl = useIntl();
  const { hash } = useLocation();
  const code = decodeURIComponent(hash.replace(/^#/, '')).trim();
  const { data, loading, error } = useQuery(GiftCardPageQuery, { variables: { code }, skip: !code, fetchPolicy: 'network-only' });
  const [copied, setCopied] = useState(false);
  const card = data?.giftCardBalance;

  const checkBalance = (
    <Link to="/gift-cards">
      <FormattedMessage id="giftCard.page.checkBalance" defaultMessage="Check a balance with a code" />
    </Link>
  );
  if (!code) {
    return (
      <div className="store-page">
        <EmptyState
          level={1}
          icon="credit-card"
          title={intl.formatMessage({ id: 'giftCard.page.noCode.title', defaultMessage: 'Open your gift card from its e-mail' })}
          description={intl.formatMessage({ id: 'giftCard.page.noCode.description', defaultMessage: 'The link in the e-mail shows your gift card and its code.' })}
          action={checkBalance}
        />
      </div>
    );
  }
  if (loading && !card) return <Spinner className="store-state" />;
  if (!card) {
    return (
      <div className="store-page">
        <EmptyState
          level={1}
          icon="error"
          title={intl.formatMessage({ id: 'giftCard.page.failed.title', defaultMessage: 'This gift card could not be shown' })}
          description={errorMessage(error, intl.formatMessage({ id: 'giftCard.page.failed.retry', defaultMessage: 'Please try again in a moment.' }))}
          action={checkBalance}
        />
      </div>
    );
  }

  const copy = async () => {
    await navigator.clipboard?.writeText(code).catch(() => undefined);
    setCopied(true);
  };
  return (
    <div className="store-page gift-card-page">
      <h1>
        {card.senderName ? (
          <FormattedMessage id="giftCard.page.titleFrom" defaultMessage="A gift card from {sender}" values={{ sender: card.senderName }} />
        ) : (
          <FormattedMessage id="giftCard.page.title" defaultMessage="Your gift card" />
        )}
      </h1>
      <Card className="gift-card-view">
        {card.designPath && <img className="gift-card-design" src={`/api/${card.designPath}`} alt="" />}
        <div className="gift-card-facts">
          {card.recipientName && (
            <p className="gift-card-to">
              <FormattedMessage id="giftCard.page.for" defaultMessage="For {recipient}" values={{ recipient: card.recipientName }} />
            </p>
          )}
          <p className="gift-card-amount">{formatPrice(card.initialAmount)}</p>
          {card.message && <blockquote className="gift-card-message">{card.message}</blockquote>}
          <div className="gift-card-code-row">
            <code className="gift-card-code" aria-label={intl.formatMessage({ id: 'giftCard.page.code', defaultMessage: 'Gift card code' })}>
              {code.toUpperCase()}
            </code>
            <Button icon={copied ? 'tick' : 'duplicate'} text={copied ? intl.formatMessage({ id: 'giftCard.page.copied', defaultMessage: 'Copied' }) : intl.formatMessage({ id: 'giftCard.page.copy', defaultMessage: 'Copy code' })} onClick={() => void copy()} />
          </div>
          {card.status === 'VOIDED' ? (
            <Callout intent="warning" icon="disable" role="status">
              <FormattedMessage id="giftCard.page.voided" defaultMessage="This gift card was cancelled by the shop and can no longer be spent." />
            </Callout>
          ) : (
            <Callout intent={Number(card.balance) > 0 ? 'success' : 'none'} icon="credit-card" role="status">
              <FormattedMessage
                id="giftCard.page.balance"
                defaultMessage="<strong>{amount} left</strong> to spend. Enter the code at checkout: it pays for cards, albums and collections, and it does not expire."
                values={{ amount: formatPrice(card.balance), strong: (chunks) => <strong>{chunks}</strong> }}
              />
            </Callout>
          )}
          {card.status !== 'VOIDED' && Number(card.balance) > 0 && (
            <Link to="/shop" className="bp6-button bp6-intent-primary bp6-large gift-card-shop">
              <FormattedMessage id="giftCard.page.shop" defaultMessage="Find something to spend it on" />
            </Link>
          )}
        </div>
      </Card>
    </div>
  );
}
