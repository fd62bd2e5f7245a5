import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
import { snackbar } from '../../common/toaster';
import { classifyDeliveryDay, earliestDeliveryDay, latestDeliveryDay } from '@rules';
import { localDay } from '../product/personalisation-rules';
import { ChangeCardDateMutation } from './account-operations';

export interface ChangingCard {
  id: number;
  recipientName: string;
  deliverAt: string | null;
}

/** "Change date": another allowed day (tomorrow up to a year ahead) for a card that has not gone out. */
export function ChangeDateDialog({ card, onClose }: { card: ChangingCard | null; onClose: () => void }) {
  const today = localDay(new Date());
  const min = earliestDeliveryDay(today);
  const max = latestDeliveryDay(today);
  const [day, setDay] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [change, { loading }] = useMutation(ChangeCardDateMutation);
  const value = day || (card?.deliverAt && localDay(new Date(card.deliverAt)) >= min ? localDay(new Date(card.deliverAt)) : min);

  const close = () => {
    setDay('');
    setError(null);
    onClose();
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!card) return;
    if (classifyDeliveryDay(value, today) !== 'later') {
      setError('Choose a day from tomorrow up to a year ahead.');
      return;
    }
    try {
      await change({ variables: { itemId: card.id, deliveryDate: value } });
      void snackbar(`The card for ${card.recipientName} now goes out on ${new Date(`${value}T12:00:00`).toLocaleDateString(undefined, { dateStyle: 'long' })}`);
      close();
    } catch (failure) {
      setError(errorMessage(failure, 'The date could not be changed.'));
    }
  };

  return (
    <Dialog isOpen={card !== null} onClose={close} title="Change date" icon="calendar" className="account-date-dialog">
      <form onSubmit={save} noValidate>
        <DialogBody>
          <FormGroup label={`When should ${card?.recipientName ?? 'the recipient'} get the card?`} labelFor="change-date" helperText={error ?? 'It goes out when that day starts.'} intent={error ? 'danger' : 'none'}>
            <InputGroup id="change-date" type="date" value={value} min={min} max={max} onValueChange={(next) => setDay(next)} intent={error ? 'danger' : 'none'} />
          </FormGroup>
          {error?.includes('already been sent') && <Callout intent="warning">This card has already gone out.</Callout>}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={close} />
              <Button type="submit" intent="primary" text="Save" loading={loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
