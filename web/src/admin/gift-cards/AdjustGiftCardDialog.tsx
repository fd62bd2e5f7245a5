import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, SegmentedControl, Spinner, type Intent } from '@blueprintjs/core';
import { errorCode, errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { money } from '../orders/order-format';
import { maskedCode, signedMoney, typedAmount } from './gift-card-format';
import { AdjustGiftCardMutation, GiftCardQuery } from './gift-cards-operations';

type Direction = 'add' | 'take';
type Problems = Partial<Record<'amount' | 'reason', string>>;

/**
 * "Adjust": adds to or takes from an active card's balance, with the reason (audited). The change is
 * said with its sign and the balance it leaves; the server refuses one that would go below nothing.
 */
export function AdjustGiftCardDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const { data, error } = useQuery(GiftCardQuery, { variables: { id } });
  const [direction, setDirection] = useState<Direction>('add');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [adjust, { loading }] = useMutation(AdjustGiftCardMutation, { refetchQueries: ['GiftCards'] });
  const card = data?.giftCard.id === id ? data.giftCard : undefined;

  const typed = typedAmount(amount);
  const signed = direction === 'take' && typed ? `-${typed}` : typed;
  const after = card && /^-?\d+(\.\d{1,2})?$/.test(signed) ? (Math.round(Number(card.balance) * 100) + Math.round(Number(signed) * 100)) / 100 : null;

  const preview =
    after === null || Number(signed) === 0 ? 'Up to $1,000 at once' : after < 0 ? `More than it holds: at most ${money(card?.balance ?? '0')} can be taken off.` : `${signedMoney(signed)}: the balance becomes ${money(after.toFixed(2))}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!card) return;
    setProblems({});
    try {
      const { data: done } = await adjust({ variables: { id, amount: signed, reason: reason.trim() } });
      void snackbar(`Gift card ${maskedCode(card.last4)} now holds ${money(done!.adjustGiftCard.balance)}`);
      onClose();
    } catch (failure) {
      const field = errorField(failure);
      if (field === 'amount' || field === 'reason') setProblems({ [field]: errorMessage(failure, 'Please check this field.') });
      else if (errorCode(failure) === 'CONFLICT') setProblems({ amount: errorMessage(failure, 'This gift card cannot be adjusted.') });
      else reportError('adjusting gift card', 'Failed to adjust the gift card', failure);
    }
  };
  const intent = (field: keyof Problems): Intent => (problems[field] ? 'danger' : 'none');
  // A field changed is a field looked at again: its message goes (the next submit checks it anew).
  const changed = (set: (value: string) => void, field: keyof Problems) => (value: string) => {
    set(value);
    if (problems[field]) setProblems(({ [field]: _gone, ...rest }) => rest);
  };

  return (
    <Dialog isOpen onClose={onClose} title={card ? `Adjust gift card ${maskedCode(card.last4)}` : 'Adjust gift card'} icon="exchange" className="gift-card-dialog">
      {error && !card ? (
        <DialogBody>
          <Callout intent="danger">This gift card could not be loaded.</Callout>
        </DialogBody>
      ) : !card ? (
        <DialogBody>
          <Spinner />
        </DialogBody>
      ) : card.status === 'VOIDED' ? (
        <>
          <DialogBody>
            <Callout intent="warning">This gift card was voided: its balance can no longer change.</Callout>
          </DialogBody>
          <DialogFooter actions={<Button text="Close" onClick={onClose} />} />
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogBody>
            <p>
              It holds <strong>{money(card.balance)}</strong> now.
            </p>
            <div className="gift-card-dialog-row">
              <FormGroup label="Change">
                <SegmentedControl
                  role="radiogroup"
                  aria-label="Change"
                  value={direction}
                  onValueChange={(value) => setDirection(value as Direction)}
                  options={[
                    { value: 'add', label: 'Add' },
                    { value: 'take', label: 'Take off' },
                  ]}
                />
              </FormGroup>
              <FormGroup
                label="Amount"
                labelFor="gift-card-adjust-amount"
                helperText={problems.amount ?? preview}
                intent={intent('amount')}
              >
                <InputGroup id="gift-card-adjust-amount" inputMode="decimal" value={amount} onValueChange={changed(setAmount, 'amount')} leftElement={<span className="gift-card-unit">$</span>} intent={intent('amount')} autoFocus />
              </FormGroup>
            </div>
            <FormGroup label="Reason" labelFor="gift-card-adjust-reason" helperText={problems.reason ?? 'Kept with the card and in the audit log.'} intent={intent('reason')}>
              <InputGroup id="gift-card-adjust-reason" value={reason} onValueChange={changed(setReason, 'reason')} maxLength={500} intent={intent('reason')} />
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancel" onClick={onClose} />
                <Button type="submit" intent="primary" text="Adjust balance" loading={loading} />
              </>
            }
          />
        </form>
      )}
    </Dialog>
  );
}
