import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, type Intent } from '@blueprintjs/core';
import { errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { money } from '../orders/order-format';
import { maskedCode, typedAmount } from './gift-card-format';
import { IssueGiftCardMutation } from './gift-cards-operations';

type Problems = Partial<Record<'amount' | 'reason', string>>;

/**
 * "Issue gift card": an amount (1 to 1,000) and the reason, kept with the card and in the audit log.
 * Once issued, the dialog shows the code: this once, since the shop keeps only its digest and last
 * four characters. It closes only through "Done" then, so the code is not lost to a stray click.
 */
export function IssueGiftCardDialog({ onClose }: { onClose: () => void }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [issued, setIssued] = useState<{ code: string; last4: string; balance: string } | null>(null);
  const [issue, { loading }] = useMutation(IssueGiftCardMutation, { refetchQueries: ['GiftCards'] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblems({});
    try {
      const { data } = await issue({ variables: { amount: typedAmount(amount), reason: reason.trim() } });
      const { code, giftCard } = data!.issueGiftCard;
      setIssued({ code, last4: giftCard.last4, balance: giftCard.balance });
    } catch (error) {
      const field = errorField(error);
      if (field === 'amount' || field === 'reason') setProblems({ [field]: errorMessage(error, 'Please check this field.') });
      else reportError('issuing gift card', 'Failed to issue the gift card', error);
    }
  };
  const intent = (field: keyof Problems): Intent => (problems[field] ? 'danger' : 'none');
  // A field changed is a field looked at again: its message goes (the next submit checks it anew).
  const changed = (set: (value: string) => void, field: keyof Problems) => (value: string) => {
    set(value);
    if (problems[field]) setProblems(({ [field]: _gone, ...rest }) => rest);
  };
  const copy = () => void navigator.clipboard?.writeText(issued!.code).then(() => snackbar('Code copied'));

  return (
    <Dialog isOpen onClose={onClose} title={issued ? 'Gift card issued' : 'Issue gift card'} icon="credit-card" className="gift-card-dialog" canEscapeKeyClose={!issued} canOutsideClickClose={!issued} isCloseButtonShown={!issued}>
      {issued ? (
        <>
          <DialogBody>
            <p>
              Gift card {maskedCode(issued.last4)} holds <strong>{money(issued.balance)}</strong>. Give its holder this code:
            </p>
            <div className="gift-card-issued-code">
              <output aria-label="Gift card code" className="gift-card-issued-code-text">
                {issued.code}
              </output>
              <Button icon="duplicate" text="Copy" onClick={copy} />
            </div>
            <Callout intent="warning" icon="eye-off" className="gift-card-once">
              This code will not be shown again: the shop keeps only its last four characters. Copy it now.
            </Callout>
          </DialogBody>
          <DialogFooter actions={<Button intent="primary" text="Done" onClick={onClose} />} />
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogBody>
            <FormGroup label="Amount" labelFor="gift-card-amount" helperText={problems.amount ?? 'From $1 to $1,000'} intent={intent('amount')}>
              <InputGroup id="gift-card-amount" inputMode="decimal" value={amount} onValueChange={changed(setAmount, 'amount')} leftElement={<span className="gift-card-unit">$</span>} intent={intent('amount')} autoFocus />
            </FormGroup>
            <FormGroup label="Reason" labelFor="gift-card-reason" helperText={problems.reason ?? 'Kept with the card and in the audit log.'} intent={intent('reason')}>
              <InputGroup id="gift-card-reason" value={reason} onValueChange={changed(setReason, 'reason')} maxLength={500} intent={intent('reason')} placeholder="A goodwill gesture for order 1A2B3C4D" />
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancel" onClick={onClose} />
                <Button type="submit" intent="primary" text="Issue gift card" loading={loading} />
              </>
            }
          />
        </form>
      )}
    </Dialog>
  );
}
