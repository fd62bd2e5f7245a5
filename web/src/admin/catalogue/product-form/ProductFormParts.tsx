import { useState } from 'react';
import { Button, FormGroup, HTMLSelect, InputGroup, TagInput, TextArea } from '@blueprintjs/core';
import type { ProductStatus } from '../../../apollo/generated/graphql';
import { CardPreview } from '../../../common/card/CardPreview';
import { FontPickerDialog } from '../../../common/fonts/FontPickerDialog';
import { fontByName, fontFamilyCss } from '../../../common/fonts/font-css';
import { ImageListField } from './ImageListField';
import { MediaSlotField } from './MediaSlotField';
import { MESSAGE_PLACEMENTS, normalisePrice } from './product-form-rules';
import { IMAGE_SLOTS, SONG_SLOTS, type ProductFormState } from './product-form-state';
import type { FieldErrors, ProductFormApi } from './use-product-form';

/*
 * The fields of the product form, in groups that the dialog and the editor page each lay out their
 * own way. Every part takes the form's api (values, setters, errors).
 */

const STATUS_OPTIONS: { value: ProductStatus; label: string }[] = [
  { value: 'ACTIVE', label: 'Active' },
  { value: 'DRAFT', label: 'Draft' },
  { value: 'ARCHIVED', label: 'Archived' },
];
const STATUS_HELP: Record<ProductStatus, string> = {
  ACTIVE: 'In the shop.',
  DRAFT: 'Seen by admins alone until it is made active.',
  ARCHIVED: 'Taken out of the shop; kept for its orders.',
};

const intentOf = (errors: FieldErrors, field: keyof FieldErrors) => (errors[field] ? 'danger' : 'none');

export function NameField({ api: { form, set, errors }, autoFocus = false }: { api: ProductFormApi; autoFocus?: boolean }) {
  return (
    <FormGroup label="Name" labelFor="product-name" labelInfo="(required)" intent={intentOf(errors, 'name')} helperText={errors.name}>
      <InputGroup id="product-name" value={form.name} onValueChange={(v) => set('name', v)} intent={intentOf(errors, 'name')} maxLength={200} autoFocus={autoFocus} />
    </FormGroup>
  );
}

export function StatusField({ api: { form, set } }: { api: ProductFormApi }) {
  return (
    <FormGroup label="Status" labelFor="product-status" helperText={STATUS_HELP[form.status]}>
      <HTMLSelect id="product-status" value={form.status} onChange={(event) => set('status', event.currentTarget.value as ProductStatus)} options={STATUS_OPTIONS} />
    </FormGroup>
  );
}

/** A money field: "$" before it, two decimals once left. */
function MoneyInput({ id, value, onChange, optional, intent }: { id: string; value: string; onChange: (value: string) => void; optional?: boolean; intent: 'danger' | 'none' }) {
  return (
    <InputGroup
      id={id}
      leftElement={<span className="product-form-currency">$</span>}
      inputMode="decimal"
      value={value}
      onValueChange={onChange}
      onBlur={() => onChange(optional && !value.trim() ? '' : normalisePrice(value))}
      intent={intent}
    />
  );
}

/** Price, compare-at price and SKU. */
export function PriceFields({ api: { form, set, errors } }: { api: ProductFormApi }) {
  return (
    <div className="product-form-row">
      <FormGroup label="Price" labelFor="product-price" labelInfo="(required)" intent={intentOf(errors, 'price')} helperText={errors.price}>
        <MoneyInput id="product-price" value={form.price} onChange={(v) => set('price', v)} intent={intentOf(errors, 'price')} />
      </FormGroup>
      <FormGroup label="Compare-at price" labelFor="product-compare-at" labelInfo="(on sale)" intent={intentOf(errors, 'compareAtPrice')} helperText={errors.compareAtPrice ?? 'The regular price, struck through beside the price.'}>
        <MoneyInput id="product-compare-at" value={form.compareAtPrice} onChange={(v) => set('compareAtPrice', v)} optional intent={intentOf(errors, 'compareAtPrice')} />
      </FormGroup>
      <FormGroup label="SKU" labelFor="product-sku" labelInfo="(optional)" intent={intentOf(errors, 'sku')} helperText={errors.sku}>
        <InputGroup id="product-sku" value={form.sku} onValueChange={(v) => set('sku', v)} intent={intentOf(errors, 'sku')} maxLength={64} />
      </FormGroup>
    </div>
  );
}

export function DescriptionField({ api: { form, set, errors }, rows = 2 }: { api: ProductFormApi; rows?: number }) {
  return (
    <FormGroup label="Description" labelFor="product-description" intent={intentOf(errors, 'description')} helperText={errors.description}>
      <TextArea id="product-description" rows={rows} fill value={form.description} onChange={(e) => set('description', e.target.value)} />
    </FormGroup>
  );
}

export function TagsField({ api: { form, set, errors } }: { api: ProductFormApi }) {
  return (
    <FormGroup label="Tags" labelFor="product-tags" intent={intentOf(errors, 'tags')} helperText={errors.tags ?? 'Press Enter or a comma after each tag.'}>
      <TagInput
        values={form.tags}
        onChange={(values) => set('tags', dedupe(values.map(String)))}
        addOnBlur
        addOnPaste
        // Enter adds a tag; it must not also submit the form.
        onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
        inputProps={{ id: 'product-tags' }}
        tagProps={{ minimal: true }}
        placeholder="birthday, flowers, …"
      />
    </FormGroup>
  );
}

export function MainImageField({ api: { form, set }, large = true }: { api: ProductFormApi; large?: boolean }) {
  return <MediaSlotField label="Main Image" kind="IMAGE" value={form.mainImage} onChange={(file) => set('mainImage', file)} large={large} />;
}

export function AdditionalImagesField({ api: { form, set } }: { api: ProductFormApi }) {
  return (
    <FormGroup label="Additional Images">
      <ImageListField images={form.associatedImages} onChange={(images) => set('associatedImages', images)} />
    </FormGroup>
  );
}

/** The greeting card's placement, font, images (with a live preview) and songs. */
export function CardFields({ api: { form, set, setSlot }, titled = true }: { api: ProductFormApi; titled?: boolean }) {
  const [pickingFont, setPickingFont] = useState(false);
  const font = fontByName(form.fontName);
  return (
    <section className="product-form-card" aria-label="E-greeting card">
      {titled && <h4 className="product-form-section-title">E-Greeting Card</h4>}
      <div className="product-form-card-grid">
        <div>
          <div className="product-form-row">
            <FormGroup label="Message Placement" labelFor="product-placement">
              <HTMLSelect
                id="product-placement"
                value={form.messageLocation}
                onChange={(e) => set('messageLocation', e.target.value as ProductFormState['messageLocation'])}
                options={MESSAGE_PLACEMENTS.map((p) => ({ value: p.value, label: p.label }))}
                fill
              />
            </FormGroup>
            <FormGroup label="Selected Font" labelFor="product-font">
              <InputGroup
                id="product-font"
                readOnly
                value={form.fontName}
                onClick={() => setPickingFont(true)}
                onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), setPickingFont(true))}
                style={{ fontFamily: font ? fontFamilyCss(font) : undefined, cursor: 'pointer' }}
                rightElement={<Button variant="minimal" icon="font" aria-label="Choose a font" onClick={() => setPickingFont(true)} />}
              />
            </FormGroup>
          </div>
          <div className="product-form-images">
            {IMAGE_SLOTS.map(({ slot, label }) => (
              <MediaSlotField key={slot} label={label} kind="IMAGE" value={form.media[slot]} onChange={(file) => setSlot(slot, file)} />
            ))}
          </div>
        </div>
        <CardPreview
          coverPath={form.media.coverImage?.thumbnailPath ?? form.media.coverImage?.filePath}
          greetingPath={form.media.greetingImage?.thumbnailPath ?? form.media.greetingImage?.filePath}
          placement={form.messageLocation}
          fontName={form.fontName}
        />
      </div>
      <div className="product-form-songs">
        {SONG_SLOTS.map(({ slot, label }) => (
          <MediaSlotField key={slot} label={label} kind="AUDIO" value={form.media[slot]} onChange={(file) => setSlot(slot, file)} />
        ))}
      </div>
      <FontPickerDialog isOpen={pickingFont} onClose={() => setPickingFont(false)} selectedFont={form.fontName} onChange={(chosen) => set('fontName', chosen.name)} />
    </section>
  );
}

/** Tags are kept once whatever their case, as the server keeps them. */
function dedupe(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags
    .map((t) => t.trim())
    .filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}
