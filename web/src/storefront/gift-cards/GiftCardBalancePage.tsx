import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
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
  const lookUp = useGiftCardLookup();
  const [code, setCode] = useState('');
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<{ card: GiftCardBalance } | { problem: string } | null>(null);

  const check = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setResult({ problem: 'Enter the code from your gift card.' });
    setChecking(true);
    setResult(await lookUp(code.trim()));
    setChecking(false);
  };
  const problem = result && 'problem' in result ? result.problem : null;

  return (
    <div className="store-page gift-card-balance-page">
      <h1>Check your gift card balance</h1>
      <Card>
        <form onSubmit={(event) => void check(event)} noValidate aria-label="Gift card balance">
          <FormGroup label="Gift card code" labelFor="gift-card-code" helperText={problem ?? 'The 16 letters and digits in your gift card e-mail, with or without the dashes.'} intent={problem ? 'danger' : 'none'}>
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
              <Button type="submit" intent="primary" size="large" text="Check balance" loading={checking} />
            </div>
          </FormGroup>
        </form>
        {result && 'card' in result && (
          <Callout intent={Number(result.card.balance) > 0 ? 'success' : 'none'} icon="credit-card" role="status" className="gift-card-balance-result">
            <strong>
              {giftCardName(result.card.last4)}: {formatPrice(result.card.balance)} left
            </strong>
            {result.card.expiresAt && <div>It can be spent until {longDate(result.card.expiresAt)}.</div>}
            {Number(result.card.balance) > 0 && (
              <div>
                Enter its code at checkout to pay with it. <Link to="/shop">Find something to spend it on</Link>
              </div>
            )}
          </Callout>
        )}
      </Card>
    </div>
  );
}
