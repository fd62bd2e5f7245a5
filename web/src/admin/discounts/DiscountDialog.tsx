import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { discountFieldsSchema, firstIssue } from '@rules/schemas';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { CreateDiscountCodeMutation, UpdateDiscountCodeMutation } from './discounts-operations';
import { DiscountRulesFields, type DiscountRules } from './DiscountRulesFields';

export interface DiscountRow {
  id: number;
  code: string;
  percentOff?: number | null;
  amountOff?: string | null;
  startsAt?: string | null;
  endsAt?: string | null;
  maxUses?: number | null;
  uses: number;
  productIds: number[];
  categoryIds: number[];
  minSubtotal?: string | null;
  oncePerCustomer: boolean;
  firstOrderOnly: boolean;
}

/** An ISO instant as a datetime-local value in the admin's time zone, and back. */
const toLocalInput = (iso: string | null | undefined) => {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : null);

/** "New discount code" / "Edit discount code": code, percent or amount off, start, end, maximum uses and the rules. */
export function DiscountDialog({ row, onClose, onSaved }: { row: DiscountRow | null; onClose: () => void; onSaved: () => void }) {
  const [code, setCode] = useState(row?.code ?? '');
  const [kind, setKind] = useState<'percent' | 'amount'>(row?.amountOff ? 'amount' : 'percent');
  const [value, setValue] = useState(row ? String(row.percentOff ?? row.amountOff ?? '') : '');
  const [startsAt, setStartsAt] = useState(toLocalInput(row?.startsAt));
  const [endsAt, setEndsAt] = useState(toLocalInput(row?.endsAt));
  const [maxUses, setMaxUses] = useState(row?.maxUses ? String(row.maxUses) : '');
  const [rules, setRules] = useState<DiscountRules>({
    productIds: row?.productIds ?? [],
    categoryIds: row?.categoryIds ?? [],
    minSubtotal: row?.minSubtotal ?? '',
    oncePerCustomer: row?.oncePerCustomer ?? false,
    firstOrderOnly: row?.firstOrderOnly ?? false,
  });
  const [problem, setProblem] = useState<{ field: string | null; message: string } | null>(null);
  const [create, creating] = useMutation(CreateDiscountCodeMutation);
  const [update, updating] = useMutation(UpdateDiscountCodeMutation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const percent = Number(value);
    const input = {
      code: code.trim(),
      percentOff: kind === 'percent' ? (Number.isInteger(percent) ? percent : -1) : null,
      amountOff: kind === 'amount' ? value.trim() : null,
      startsAt: fromLocalInput(startsAt),
      endsAt: fromLocalInput(endsAt),
      maxUses: maxUses.trim() ? Number(maxUses) : null,
      productIds: rules.productIds,
      categoryIds: rules.categoryIds,
      minSubtotal: rules.minSubtotal.trim() || null,
      oncePerCustomer: rules.oncePerCustomer,
      firstOrderOnly: rules.firstOrderOnly,
    };
    // The shop's own rules first (the same schema the server parses with): the field at fault, without a round trip.
    const checked = discountFieldsSchema.safeParse(input);
    if (!checked.success) {
      const { message, path } = firstIssue(checked.error);
      // "productIds.1": the list is the field.
      setProblem({ field: path ? path.split('.')[0]! : null, message });
      return;
    }
    try {
      if (row) await update({ variables: { id: row.id, input } });
      else await create({ variables: { input } });
      void snackbar(row ? 'Discount code updated successfully!' : 'Discount code created successfully!');
      onSaved();
    } catch (error) {
      const field = errorField(error);
      if (field) setProblem({ field: field.split('.')[0]!, message: errorMessage(error, 'Please check this field.') });
      else reportError(row ? 'updating discount code' : 'creating discount code', 'Failed to save discount code', error);
    }
  };
  const help = (field: string) => (problem?.field === field ? problem.message : undefined);
  const intent = (field: string) => (problem?.field === field ? 'danger' : 'none');
  const valueField = kind === 'percent' ? 'percentOff' : 'amountOff';

  return (
    <Dialog isOpen onClose={onClose} title={row ? 'Edit discount code' : 'New discount code'} icon="tag" className="discount-dialog">
      <form onSubmit={(event) => void submit(event)}>
        <DialogBody>
          <FormGroup label="Code" labelFor="discount-code" helperText={help('code') ?? 'Shoppers may type it in any case.'} intent={intent('code')}>
            <InputGroup id="discount-code" value={code} onValueChange={setCode} autoFocus intent={intent('code')} />
          </FormGroup>
          <div className="discount-dialog-row">
            <FormGroup label="Discount" labelFor="discount-kind">
              <HTMLSelect id="discount-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as 'percent' | 'amount')} options={[{ value: 'percent', label: 'Percent off' }, { value: 'amount', label: 'Amount off ($)' }]} />
            </FormGroup>
            <FormGroup label={kind === 'percent' ? 'Percent' : 'Amount'} labelFor="discount-value" helperText={help(valueField)} intent={intent(valueField)}>
              <InputGroup id="discount-value" inputMode="decimal" value={value} onValueChange={setValue} intent={intent(valueField)} rightElement={<span className="discount-unit">{kind === 'percent' ? '%' : '$'}</span>} />
            </FormGroup>
          </div>
          <div className="discount-dialog-row">
            <FormGroup label="Starts" labelFor="discount-starts" helperText={help('startsAt') ?? 'Empty: at once'} intent={intent('startsAt')}>
              <InputGroup id="discount-starts" type="datetime-local" value={startsAt} onValueChange={setStartsAt} />
            </FormGroup>
            <FormGroup label="Ends" labelFor="discount-ends" helperText={help('endsAt') ?? 'Empty: no end'} intent={intent('endsAt')}>
              <InputGroup id="discount-ends" type="datetime-local" value={endsAt} onValueChange={setEndsAt} />
            </FormGroup>
          </div>
          <FormGroup label="Maximum uses" labelFor="discount-max" helperText={help('maxUses') ?? `Empty: no limit${row ? ` · used ${row.uses} times so far` : ''}`} intent={intent('maxUses')}>
            <InputGroup id="discount-max" inputMode="numeric" value={maxUses} onValueChange={setMaxUses} intent={intent('maxUses')} />
          </FormGroup>
          <DiscountRulesFields rules={rules} onChange={setRules} help={help} />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={onClose} />
              <Button type="submit" intent="primary" text="Save" loading={creating.loading || updating.loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
