import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { MAX_SALE_BANNER_LENGTH } from '@rules';
import { issuesByField, saleFieldsSchema } from '@rules/schemas';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, SegmentedControl, type Intent } from '@blueprintjs/core';
import type { SaleDialog_SaleFragment } from '../../apollo/generated/graphql';
import { errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { BannerPreview } from './BannerPreview';
import { SaleCategoriesField } from './SaleCategoriesField';
import { ProductPicker } from '../catalogue/product-picker/ProductPicker';
import { fromZonedInput, toZonedInput, zoneLabel } from './sale-format';
import { CreateSaleMutation, UpdateSaleMutation } from './promotions-operations';

type Kind = 'percent' | 'amount';
type Problems = Partial<Record<string, string>>;

/** A new sale starts at the next full hour and runs a week. */
function defaultRange(): { startsAt: string; endsAt: string } {
  const start = new Date();
  start.setMinutes(60, 0, 0);
  return { startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 7 * 86_400_000).toISOString() };
}

/**
 * "New sale" / "Edit sale": a name, a percentage or an amount off, the products and categories it is
 * for, when it starts and ends (in the shop's time zone) and the banner the announcement bar shows
 * while it runs. The shop's own rules are checked first; the server's field errors land on their fields.
 */
export function SaleDialog({ sale, timeZone, onClose, onSaved }: { sale: SaleDialog_SaleFragment | null; timeZone: string; onClose: () => void; onSaved: () => void }) {
  const [initial] = useState(() => (sale ? { startsAt: sale.startsAt, endsAt: sale.endsAt } : defaultRange()));
  const [name, setName] = useState(sale?.name ?? '');
  const [kind, setKind] = useState<Kind>(sale?.amountOff ? 'amount' : 'percent');
  const [value, setValue] = useState(sale ? String(sale.percentOff ?? sale.amountOff ?? '') : '');
  const [productIds, setProductIds] = useState<number[]>(sale?.productIds ?? []);
  const [categoryIds, setCategoryIds] = useState<number[]>(sale?.categoryIds ?? []);
  const [startsAt, setStartsAt] = useState(toZonedInput(initial.startsAt, timeZone));
  const [endsAt, setEndsAt] = useState(toZonedInput(initial.endsAt, timeZone));
  const [banner, setBanner] = useState(sale?.banner ?? '');
  const [problems, setProblems] = useState<Problems>({});
  const [create, creating] = useMutation(CreateSaleMutation);
  const [update, updating] = useMutation(UpdateSaleMutation);

  // A time left as it was keeps its seconds (a sale may start at any second; the inputs show minutes).
  const instant = (text: string, original: string) => (text === toZonedInput(original, timeZone) ? original : fromZonedInput(text, timeZone));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const percent = Number(value);
    const input = {
      name: name.trim(),
      percentOff: kind === 'percent' && value.trim() ? (Number.isInteger(percent) ? percent : -1) : null,
      amountOff: kind === 'amount' && value.trim() ? value.trim().replace(/^\$/, '') : null,
      productIds,
      categoryIds,
      startsAt: instant(startsAt, initial.startsAt) ?? '',
      endsAt: instant(endsAt, initial.endsAt) ?? '',
      banner: banner.trim() || null,
    };
    // The shop's own rules first (the schema the server parses with): every field at fault, without a round trip.
    const checked = saleFieldsSchema.safeParse(input);
    if (!checked.success) {
      setProblems(Object.fromEntries(Object.entries(issuesByField(checked.error)).map(([field, issue]) => [field, issue.message])));
      return;
    }
    setProblems({});
    try {
      if (sale) await update({ variables: { id: sale.id, input } });
      else await create({ variables: { input } });
      void snackbar(sale ? 'Sale updated: the shop shows its prices now.' : 'Sale created.');
      onSaved();
    } catch (error) {
      const field = errorField(error);
      if (field) setProblems({ [field]: errorMessage(error, 'Please check this field.') });
      else reportError(sale ? 'updating sale' : 'creating sale', 'Failed to save the sale', error);
    }
  };

  // A field changed is a field looked at again: its message goes (the next Save checks it anew).
  const changed =
    <T,>(set: (value: T) => void, ...fields: string[]) =>
    (value: T) => {
      set(value);
      if (fields.some((field) => problems[field])) setProblems((all) => Object.fromEntries(Object.entries(all).filter(([field]) => !fields.includes(field))));
    };
  const help = (...fields: string[]) => fields.map((field) => problems[field]).find(Boolean);
  const intent = (...fields: string[]): Intent => (help(...fields) ? 'danger' : 'none');
  const zone = zoneLabel(timeZone);

  return (
    <Dialog isOpen onClose={onClose} title={sale ? 'Edit sale' : 'New sale'} icon="percentage" className="sale-dialog">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogBody>
          <FormGroup label="Name" labelFor="sale-name" helperText={help('name') ?? 'For you: shoppers see the banner, not the name.'} intent={intent('name')}>
            <InputGroup id="sale-name" value={name} onValueChange={changed(setName, 'name')} autoFocus intent={intent('name')} placeholder="Mother's Day week" />
          </FormGroup>
          <div className="sale-dialog-row">
            <FormGroup label="Discount">
              <SegmentedControl
                role="radiogroup"
                aria-label="Discount"
                value={kind}
                onValueChange={changed((next: string) => setKind(next as Kind), 'percentOff', 'amountOff')}
                options={[
                  { value: 'percent', label: 'Percent off' },
                  { value: 'amount', label: 'Amount off' },
                ]}
              />
            </FormGroup>
            <FormGroup label={kind === 'percent' ? 'Percent' : 'Amount'} labelFor="sale-value" helperText={help('percentOff', 'amountOff') ?? (kind === 'percent' ? '1 to 90' : 'Off each product; a price never goes below $0.01')} intent={intent('percentOff', 'amountOff')}>
              <InputGroup
                id="sale-value"
                inputMode="decimal"
                value={value}
                onValueChange={changed(setValue, 'percentOff', 'amountOff')}
                intent={intent('percentOff', 'amountOff')}
                leftElement={kind === 'amount' ? <span className="sale-unit">$</span> : undefined}
                rightElement={kind === 'percent' ? <span className="sale-unit">%</span> : undefined}
              />
            </FormGroup>
          </div>
          <FormGroup label="Products" labelFor="sale-products" helperText={help('productIds')} intent={intent('productIds')}>
            <ProductPicker id="sale-products" value={productIds} named={sale?.products} onChange={changed(setProductIds, 'productIds', 'categoryIds')} intent={intent('productIds')} />
          </FormGroup>
          <FormGroup label="Categories" labelFor="sale-categories" helperText={help('categoryIds') ?? 'A category includes its subcategories and every product in them.'} intent={intent('categoryIds', 'productIds')}>
            <SaleCategoriesField id="sale-categories" value={categoryIds} onChange={changed(setCategoryIds, 'productIds', 'categoryIds')} intent={intent('categoryIds', 'productIds')} />
          </FormGroup>
          <div className="sale-dialog-row">
            <FormGroup label="Starts" labelFor="sale-starts" helperText={help('startsAt') ?? zone} intent={intent('startsAt')}>
              <InputGroup id="sale-starts" type="datetime-local" value={startsAt} onValueChange={changed(setStartsAt, 'startsAt', 'endsAt')} intent={intent('startsAt')} />
            </FormGroup>
            <FormGroup label="Ends" labelFor="sale-ends" helperText={help('endsAt') ?? zone} intent={intent('endsAt')}>
              <InputGroup id="sale-ends" type="datetime-local" value={endsAt} min={startsAt || undefined} onValueChange={changed(setEndsAt, 'startsAt', 'endsAt')} intent={intent('endsAt')} />
            </FormGroup>
          </div>
          <FormGroup
            label="Banner (optional)"
            labelFor="sale-banner"
            helperText={help('banner') ?? `Shown in the shop's announcement bar while the sale runs (${banner.length}/${MAX_SALE_BANNER_LENGTH}).`}
            intent={intent('banner')}
          >
            <InputGroup id="sale-banner" value={banner} onValueChange={changed(setBanner, 'banner')} maxLength={MAX_SALE_BANNER_LENGTH} intent={intent('banner')} placeholder="Mother's Day: 20% off every card" />
          </FormGroup>
          <BannerPreview text={banner.trim()} />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={onClose} />
              <Button type="submit" intent="primary" text={sale ? 'Save' : 'Create sale'} loading={creating.loading || updating.loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
