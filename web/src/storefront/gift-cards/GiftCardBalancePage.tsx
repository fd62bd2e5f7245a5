import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatPrice, giftCardName } from '../common/price';
import { longDate } from '../common/dates';
import { useGiftCardLookup, type GiftCardBalance } from './gift-card-operations';
import '../common/storefront.css';
import './gift-cards.css';


/**
 * /gift-cards: "Check your gift card balance". A code and "Check balance" answer what the card has
 * left, or the shop's reason (no card has that code, too many look-ups this hour).
 */
export default function GiftCardBalancePage() {
  const intl = useIntl();
  const lookUp = useGiftCardLookup();
  const [code, setCode] = useState('');
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<{ card: GiftCardBalance } | { problem: string } | null>(null);

  const check = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setResult({ problem: intl.formatMessage({ id: 'giftCard.balance.codeMissing', defaultMessage: 'Enter the code from your gift card.' }) });
    setChecking(true);
    setResult(await lookUp(code.trim()));
    setChecking(false);
  };
  const problem = result && 'problem' in result ? result.problem : null;

  return (
    <div className="store-page gift-card-balance-page">
      <h1>
        <FormattedMessage id="giftCard.balance.title" defaultMessage="Check your gift card balance" />
      </h1>
      <Card>
        <form onSubmit={(event) => void check(event)} noValidate aria-label={intl.formatMessage({ id: 'giftCard.balance.form', defaultMessage: 'Gift card balance' })}>
          <FormGroup
            label={intl.formatMessage({ id: 'giftCard.balance.codeLabel', defaultMessage: 'Gift card code' })}
            labelFor="gift-card-code"
            helperText={problem ?? intl.formatMessage({ id: 'giftCard.balance.codeHelp', defaultMessage: 'The 16 letters and digits in your gift card e-mail, with or without the dashes.' })}
            intent={problem ? 'danger' : 'none'}
          >
            <div className="gift-card-balance-row">
              <InputGroup
                id="gift-card-code"
                value={code}
                onValueChange={(value) => {
                  setCode(value);
                  // An answer is about the code it was given: another code starts afresh.
                  setResult(null);
                }}
                placeholder="XXXX-XXXX-XXXX-XXXX"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                intent={problem ? 'danger' : 'none'}
                size="large"
              />
              <Button type="submit" intent="primary" size="large" text={intl.formatMessage({ id: 'giftCard.balance.check', defaultMessage: 'Check balance' })} loading={checking} />
            </div>
          </FormGroup>
        </form>
        {result && 'card' in result && (
          <Callout intent={Number(result.card.balance) > 0 ? 'success' : 'none'} icon="credit-card" role="status" className="gift-card-balance-result">
            <strong>
              <FormattedMessage id="giftCard.balance.left" defaultMessage="{card}: {amount} left" values={{ card: giftCardName(result.card.last4), amount: formatPrice(result.card.balance) }} />
            </strong>
            {result.card.expiresAt && (
              <div>
                <FormattedMessage id="giftCard.balance.expires" defaultMessage="It can be spent until {date}." values={{ date: longDate(result.card.expiresAt) }} />
              </div>
            )}
            {Number(result.card.balance) > 0 && (
              <div>
                <FormattedMessage
                  id="giftCard.balance.spend"
                  defaultMessage="Enter its code at checkout to pay with it. <link>Find something to spend it on</link>"
                  values={{ link: (chunks) => <Link to="/shop">{chunks}</Link> }}
                />
              </div>
            )}
          </Callout>
        )}
      </Card>
    </div>
  );
}
