import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, SegmentedControl, Switch, type Intent } from '@blueprintjs/core';
import { errorField, errorMessage } from '../../apollo/errors';
import type { MembershipPeriod, MembershipPlanFieldsFragment } from '../../apollo/generated/graphql';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { typedAmount } from '../gift-cards/gift-card-format';
import { CreateMembershipPlanMutation, UpdateMembershipPlanMutation } from './memberships-operations';

type Field = 'name' | 'price' | 'period' | 'percentOffOther' | 'ecardsIncluded' | 'active';
type Problems = Partial<Record<Field, string>>;
const FIELDS: readonly string[] = ['name', 'price', 'period', 'percentOffOther', 'ecardsIncluded', 'active'] satisfies Field[];

/**
 * "New plan" / "Edit plan": the name shoppers see, the price of a month or a year, e-cards included,
 * the percentage off albums and collections, and whether /membership offers it. The shop's reasons
 * land on their fields (a name already taken on the name). A changed price applies to those who join
 * from now on: members keep theirs until they subscribe again.
 */
export function MembershipPlanDialog({ plan, onClose }: { plan: MembershipPlanFieldsFragment | null; onClose: () => void }) {
  const [name, setName] = useState(plan?.name ?? '');
  const [price, setPrice] = useState(plan?.price ?? '');
  const [period, setPeriod] = useState<MembershipPeriod>(plan?.period ?? 'MONTH');
  const [ecardsIncluded, setEcardsIncluded] = useState(plan?.ecardsIncluded ?? true);
  const [percent, setPercent] = useState(plan ? String(plan.percentOffOther) : '');
  const [active, setActive] = useState(plan?.active ?? true);
  const [problems, setProblems] = useState<Problems>({});
  const [create, creating] = useMutation(CreateMembershipPlanMutation, { refetchQueries: ['AdminMembershipPlans'] });
  const [update, updating] = useMutation(UpdateMembershipPlanMutation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const percentText = percent.trim();
    // A whole number or nothing (none off): anything else would not reach the shop as an Int.
    if (percentText && !/^\d{1,3}$/.test(percentText)) return setProblems({ percentOffOther: 'A whole number from 0 to 90.' });
    setProblems({});
    const input = { name: name.trim(), price: typedAmount(price), period, ecardsIncluded, percentOffOther: percentText ? Number(percentText) : 0, active };
    try {
      if (plan) await update({ variables: { id: plan.id, input } });
      else await create({ variables: { input } });
      void snackbar(plan ? `Plan ${input.name} saved` : `Plan ${input.name} created`);
      onClose();
    } catch (error) {
      const field = errorField(error);
      if (field && FIELDS.includes(field)) setProblems({ [field as Field]: errorMessage(error, 'Please check this field.') });
      else reportError(plan ? 'saving membership plan' : 'creating membership plan', 'Failed to save the plan', error);
    }
  };
  const intent = (field: Field): Intent => (problems[field] ? 'danger' : 'none');
  // A field changed is a field looked at again: its message goes (the next save checks it anew).
  const changed = <T,>(set: (value: T) => void, field: Field) => (value: T) => {
    set(value);
    if (problems[field]) setProblems(({ [field]: _gone, ...rest }) => rest);
  };

  return (
    <Dialog isOpen onClose={onClose} title={plan ? `Edit plan ${plan.name}` : 'New plan'} icon="crown" className="membership-plan-dialog">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogBody>
          <FormGroup label="Name" labelFor="plan-name" helperText={problems.name ?? 'Shoppers see it on the Membership page and at checkout.'} intent={intent('name')}>
            <InputGroup id="plan-name" value={name} onValueChange={changed(setName, 'name')} maxLength={80} intent={intent('name')} autoFocus placeholder="Card Lover" />
          </FormGroup>
          <div className="membership-plan-dialog-row">
            <FormGroup label="Price" labelFor="plan-price" helperText={problems.price ?? (plan ? 'Members keep the price they joined at.' : undefined)} intent={intent('price')}>
              <InputGroup id="plan-price" inputMode="decimal" value={price} onValueChange={changed(setPrice, 'price')} leftElement={<span className="membership-plan-unit">$</span>} intent={intent('price')} placeholder="4.99" />
            </FormGroup>
            <FormGroup label="Every" helperText={problems.period} intent={intent('period')}>
              <SegmentedControl
                role="radiogroup"
                aria-label="Every"
                value={period}
                onValueChange={changed((value: string) => setPeriod(value as MembershipPeriod), 'period')}
                options={[
                  { value: 'MONTH', label: 'Month' },
                  { value: 'YEAR', label: 'Year' },
                ]}
              />
            </FormGroup>
          </div>
          <FormGroup label="Percent off albums and collections" labelFor="plan-percent" helperText={problems.percentOffOther ?? 'From 0 to 90; empty: none.'} intent={intent('percentOffOther')}>
            <InputGroup id="plan-percent" inputMode="numeric" value={percent} onValueChange={changed(setPercent, 'percentOffOther')} rightElement={<span className="membership-plan-unit membership-plan-unit-end">%</span>} intent={intent('percentOffOther')} placeholder="10" />
          </FormGroup>
          <FormGroup helperText={problems.ecardsIncluded} intent={intent('ecardsIncluded')}>
            <Switch label="E-cards included (free at checkout while the membership lasts)" checked={ecardsIncluded} onChange={(event) => changed(setEcardsIncluded, 'ecardsIncluded')(event.currentTarget.checked)} />
          </FormGroup>
          <FormGroup helperText={problems.active ?? (plan ? 'A plan no longer offered keeps its members.' : undefined)} intent={intent('active')}>
            <Switch label="Offered on the Membership page" checked={active} onChange={(event) => changed(setActive, 'active')(event.currentTarget.checked)} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={onClose} />
              <Button type="submit" intent="primary" text={plan ? 'Save' : 'Create plan'} loading={creating.loading || updating.loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
