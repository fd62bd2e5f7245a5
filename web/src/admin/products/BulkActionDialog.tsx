import { useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup } from '@blueprintjs/core';
import type { BulkProductActionInput } from '../../apollo/generated/graphql';

/** The bulk actions that ask for something first: where to move, what price, which tag. */
export type AskingAction = 'move' | 'price' | 'tag';

/**
 * What a bulk action needs before it runs: a category to move to, a new price or a percentage, a tag
 * to add or remove. `onRun` gets the action as `bulkUpdateProducts` takes it.
 */
export function BulkActionDialog({ kind, count, categories, onRun, onClose, busy }: { kind: AskingAction | null; count: number; categories: { id: number; label: string }[]; onRun: (action: BulkProductActionInput) => void; onClose: () => void; busy: boolean }) {
  const [categoryId, setCategoryId] = useState('');
  const [priceMode, setPriceMode] = useState<'set' | 'percent'>('percent');
  const [amount, setAmount] = useState('');
  const [tagMode, setTagMode] = useState<'ADD_TAG' | 'REMOVE_TAG'>('ADD_TAG');
  const [tag, setTag] = useState('');
  const products = count === 1 ? '1 product' : `${count} products`;
  const title = kind === 'move' ? `Move ${products}` : kind === 'price' ? `Change the price of ${products}` : `Tag ${products}`;

  const action = (): BulkProductActionInput | null => {
    if (kind === 'move') return categoryId ? { type: 'MOVE', categoryId: Number(categoryId) } : null;
    if (kind === 'price') {
      const value = amount.trim().replace(/^\$/, '').replace(/%$/, '');
      if (!value || !Number.isFinite(Number(value))) return null;
      return priceMode === 'set' ? { type: 'PRICE', price: value } : { type: 'PRICE', percent: Number(value) };
    }
    return tag.trim() ? { type: tagMode, tag: tag.trim() } : null;
  };
  const ready = action();

  return (
    <Dialog isOpen={kind !== null} onClose={onClose} title={title} icon={kind === 'move' ? 'move' : kind === 'price' ? 'dollar' : 'tag'}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) onRun(ready);
        }}
      >
        <DialogBody>
          {kind === 'move' && (
            <FormGroup label="Category" labelFor="bulk-category">
              <HTMLSelect id="bulk-category" fill value={categoryId} onChange={(event) => setCategoryId(event.currentTarget.value)} options={[{ value: '', label: 'Choose a category' }, ...categories.map((c) => ({ value: String(c.id), label: c.label }))]} />
            </FormGroup>
          )}
          {kind === 'price' && (
            <>
              <RadioGroup inline name="bulk-price-mode" selectedValue={priceMode} onChange={(event) => setPriceMode(event.currentTarget.value as 'set' | 'percent')}>
                <Radio value="percent" label="Change by a percentage" />
                <Radio value="set" label="Set a new price" />
              </RadioGroup>
              <FormGroup label={priceMode === 'set' ? 'New price' : 'Percentage'} labelFor="bulk-amount" helperText={priceMode === 'percent' ? 'Raises each price by this much, rounded to the cent; a negative number lowers it (-20 for 20 % off).' : 'Every chosen product gets this price.'}>
                <InputGroup id="bulk-amount" inputMode="decimal" value={amount} onValueChange={setAmount} leftElement={priceMode === 'set' ? <span className="product-form-currency">$</span> : undefined} rightElement={priceMode === 'percent' ? <span className="bulk-percent">%</span> : undefined} autoFocus />
              </FormGroup>
            </>
          )}
          {kind === 'tag' && (
            <>
              <RadioGroup inline name="bulk-tag-mode" selectedValue={tagMode} onChange={(event) => setTagMode(event.currentTarget.value as 'ADD_TAG' | 'REMOVE_TAG')}>
                <Radio value="ADD_TAG" label="Add a tag" />
                <Radio value="REMOVE_TAG" label="Remove a tag" />
              </RadioGroup>
              <FormGroup label="Tag" labelFor="bulk-tag">
                <InputGroup id="bulk-tag" value={tag} onValueChange={setTag} maxLength={50} autoFocus />
              </FormGroup>
            </>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={onClose} />
              <Button type="submit" intent="primary" text="Apply" disabled={!ready} loading={busy} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
