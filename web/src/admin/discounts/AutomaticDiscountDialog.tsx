import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { automaticDiscountFieldsSchema, firstIssue } from '@rules/schemas';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { CreateAutomaticDiscountMutation } from './discounts-operations';

type Kind = 'cards' | 'subtotal';

const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : null);
const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim() === '' ? null : -1);

/** "New automatic discount": a name and "N or more cards: P % off the cards" or "orders from X: Y off", with an optional start and end. */
export function AutomaticDiscountDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('cards');
  const [threshold, setThreshold] = useState('');
  const [off, setOff] = useState('');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [problem, setProblem] = useState<{ field: string | null; message: string } | null>(null);
  const [create, creating] = useMutation(CreateAutomaticDiscountMutation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      name: name.trim(),
      minCards: kind === 'cards' ? whole(threshold) : null,
      percentOff: kind === 'cards' ? whole(off) : null,
      minSubtotal: kind === 'subtotal' ? threshold.trim() || null : null,
      amountOff: kind === 'subtotal' ? off.trim() || null : null,
      startsAt: fromLocalInput(startsAt),
      endsAt: fromLocalInput(endsAt),
    };
    // The shop's own rules first (the schema the server parses with).
    const checked = automaticDiscountFieldsSchema.safeParse(input);
    if (!checked.success) {
      const { message, path } = firstIssue(checked.error);
      setProblem({ field: path || null, message });
      return;
    }
    try {
      await create({ variables: { input } });
      void snackbar('Automatic discount created successfully!');
      onSaved();
    } catch (error) {
      const field = errorField(error);
      if (field) setProblem({ field, message: errorMessage(error, 'Please check this field.') });
      else reportError('creating automatic discount', 'Failed to save automatic discount', error);
    }
  };
  const help = (field: string) => (problem?.field === field ? problem.message : undefined);
  const intent = (field: string) => (problem?.field === field ? 'danger' : 'none');
  const thresholdField = kind === 'cards' ? 'minCards' : 'minSubtotal';
  const offField = kind === 'cards' ? 'percentOff' : 'amountOff';

  return (
    <Dialog isOpen onClose={onClose} title="New automatic discount" icon="automatic-updates">
      <form onSubmit={(event) => void submit(event)}>
        <DialogBody>
          <FormGroup label="Name" labelFor="automatic-name" helperText={help('name') ?? 'Shoppers see it in the cart, e.g. "3 cards, 15 % off".'} intent={intent('name')}>
            <InputGroup id="automatic-name" value={name} onValueChange={setName} autoFocus intent={intent('name')} />
          </FormGroup>
          <FormGroup label="Kind" labelFor="automatic-kind">
            <HTMLSelect
              id="automatic-kind"
              value={kind}
              onChange={(event) => setKind(event.currentTarget.value as Kind)}
              options={[{ value: 'cards', label: 'N or more cards: P % off the cards' }, { value: 'subtotal', label: 'Orders from X: Y off' }]}
            />
          </FormGroup>
          <div className="discount-dialog-row">
            <FormGroup label={kind === 'cards' ? 'Cards (or more)' : 'Orders from'} labelFor="automatic-threshold" helperText={help(thresholdField) ?? (kind === 'cards' ? 'Each recipient of a card counts.' : undefined)} intent={intent(thresholdField)}>
              <InputGroup id="automatic-threshold" inputMode={kind === 'cards' ? 'numeric' : 'decimal'} value={threshold} onValueChange={setThreshold} intent={intent(thresholdField)} leftElement={kind === 'subtotal' ? <span className="discount-unit">$</span> : undefined} />
            </FormGroup>
            <FormGroup label={kind === 'cards' ? 'Percent off the cards' : 'Amount off'} labelFor="automatic-off" helperText={help(offField)} intent={intent(offField)}>
              <InputGroup id="automatic-off" inputMode="decimal" value={off} onValueChange={setOff} intent={intent(offField)} rightElement={<span className="discount-unit">{kind === 'cards' ? '%' : '$'}</span>} />
            </FormGroup>
          </div>
          <div className="discount-dialog-row">
            <FormGroup label="Starts" labelFor="automatic-starts" helperText={help('startsAt') ?? 'Empty: at once'} intent={intent('startsAt')}>
              <InputGroup id="automatic-starts" type="datetime-local" value={startsAt} onValueChange={setStartsAt} />
            </FormGroup>
            <FormGroup label="Ends" labelFor="automatic-ends" helperText={help('endsAt') ?? 'Empty: no end'} intent={intent('endsAt')}>
              <InputGroup id="automatic-ends" type="datetime-local" value={endsAt} onValueChange={setEndsAt} />
            </FormGroup>
          </div>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={onClose} />
              <Button type="submit" intent="primary" text="Save" loading={creating.loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
