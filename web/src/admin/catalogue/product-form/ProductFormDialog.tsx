import { useEffect, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, TagInput, TextArea } from '@blueprintjs/core';
import { errorCode, errorField, errorMessage } from '../../../apollo/errors';
import type { ProductInput, ProductStatus } from '../../../apollo/generated/graphql';
import { CardPreview } from '../../../common/card/CardPreview';
import { FontPickerDialog } from '../../../common/fonts/FontPickerDialog';
import { fontByName, fontFamilyCss } from '../../../common/fonts/font-css';
import { ImageListField } from './ImageListField';
import { MediaSlotField } from './MediaSlotField';
import { INVALID_FORM, MESSAGE_PLACEMENTS, normalisePrice, validateProductForm } from './product-form-rules';
import { E_GREETING_CARD_TYPE, IMAGE_SLOTS, SONG_SLOTS, toProductInput, type CardSlot, type PickedMedia, type ProductFormState } from './product-form-state';
import './product-form.css';

export const PRODUCT_FORM_WIDTH = 800;

type FieldErrors = Partial<Record<'name' | 'price' | 'compareAtPrice' | 'sku' | 'description' | 'tags', string>>;

/** Server field names (`eGreetingCard.song1Id`) → the form's. */
/** The product's status as the form offers it, and what each means. */
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

const SERVER_FIELDS: Record<string, keyof FieldErrors> = { name: 'name', price: 'price', compareAtPrice: 'compareAtPrice', sku: 'sku', description: 'description', tags: 'tags' };

/**
 * The product form (800 px): 'Edit Product' or 'Create {type name}'. Every product has a main image,
 * name, price, description, tags and additional images; an e-greeting card also has its message
 * placement, font, images and songs, with a live preview. `onSubmit` saves and throws on failure;
 * the server's field errors land on their fields.
 */
export function ProductFormDialog({
  isOpen,
  title,
  initial,
  productTypeId,
  categoryId,
  onClose,
  onSubmit,
}: {
  isOpen: boolean;
  title: string;
  initial: ProductFormState;
  productTypeId: number;
  categoryId: number;
  onClose: () => void;
  onSubmit: (input: ProductInput) => Promise<void>;
}) {
  const [form, setForm] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [pickingFont, setPickingFont] = useState(false);
  const isCard = productTypeId === E_GREETING_CARD_TYPE;

  useEffect(() => {
    if (!isOpen) return;
    setForm(initial);
    setSubmitted(false);
    setServerErrors({});
    setFormError(null);
  }, [isOpen, initial]);

  const set = <K extends keyof ProductFormState>(key: K, value: ProductFormState[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (key in serverErrors) setServerErrors((current) => ({ ...current, [key]: undefined }));
  };
  const setSlot = (slot: CardSlot, file: PickedMedia | null) => setForm((current) => ({ ...current, media: { ...current.media, [slot]: file } }));

  const ruleErrors = validateProductForm(form);
  const errors: FieldErrors = { ...(submitted ? ruleErrors : {}), ...Object.fromEntries(Object.entries(serverErrors).filter(([, v]) => v)) };

  const save = async () => {
    setSubmitted(true);
    if (Object.keys(ruleErrors).length) {
      setFormError(INVALID_FORM);
      return;
    }
    setFormError(null);
    setSaving(true);
    try {
      await onSubmit(toProductInput(form, { categoryId, productTypeId }));
    } catch (error) {
      const field = errorField(error);
      if (field && SERVER_FIELDS[field]) setServerErrors({ [SERVER_FIELDS[field]]: errorMessage(error, '') });
      else if (errorCode(error) === 'BAD_USER_INPUT' || errorCode(error) === 'CONFLICT') setFormError(errorMessage(error, INVALID_FORM));
    } finally {
      setSaving(false);
    }
  };

  const intent = (field: keyof FieldErrors) => (errors[field] ? 'danger' : 'none');
  const font = fontByName(form.fontName);

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={title} icon="box" style={{ width: PRODUCT_FORM_WIDTH, maxWidth: '96vw' }} className="product-form-dialog" canOutsideClickClose={false}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        noValidate
      >
        <DialogBody className="product-form">
          {formError && (
            <Callout intent="danger" icon="error" className="product-form-error">
              {formError}
            </Callout>
          )}
          <div className="product-form-top">
            <MediaSlotField label="Main Image" kind="IMAGE" value={form.mainImage} onChange={(file) => set('mainImage', file)} large />
            <div className="product-form-main-fields">
              <FormGroup label="Name" labelFor="product-name" labelInfo="(required)" intent={intent('name')} helperText={errors.name}>
                <InputGroup id="product-name" value={form.name} onValueChange={(v) => set('name', v)} intent={intent('name')} maxLength={200} autoFocus />
              </FormGroup>
              <FormGroup label="Status" labelFor="product-status" helperText={STATUS_HELP[form.status]}>
                <HTMLSelect id="product-status" value={form.status} onChange={(event) => set('status', event.currentTarget.value as ProductStatus)} options={STATUS_OPTIONS} />
              </FormGroup>
              <div className="product-form-row">
                <FormGroup label="Price" labelFor="product-price" labelInfo="(required)" intent={intent('price')} helperText={errors.price}>
                  <InputGroup
                    id="product-price"
                    leftElement={<span className="product-form-currency">$</span>}
                    inputMode="decimal"
                    value={form.price}
                    onValueChange={(v) => set('price', v)}
                    onBlur={() => set('price', normalisePrice(form.price))}
                    intent={intent('price')}
                  />
                </FormGroup>
                <FormGroup label="Compare-at price" labelFor="product-compare-at" labelInfo="(on sale)" intent={intent('compareAtPrice')} helperText={errors.compareAtPrice ?? 'The regular price, struck through beside the price.'}>
                  <InputGroup
                    id="product-compare-at"
                    leftElement={<span className="product-form-currency">$</span>}
                    inputMode="decimal"
                    value={form.compareAtPrice}
                    onValueChange={(v) => set('compareAtPrice', v)}
                    onBlur={() => set('compareAtPrice', form.compareAtPrice.trim() ? normalisePrice(form.compareAtPrice) : '')}
                    intent={intent('compareAtPrice')}
                  />
                </FormGroup>
                <FormGroup label="SKU" labelFor="product-sku" labelInfo="(optional)" intent={intent('sku')} helperText={errors.sku}>
                  <InputGroup id="product-sku" value={form.sku} onValueChange={(v) => set('sku', v)} intent={intent('sku')} maxLength={64} />
                </FormGroup>
              </div>
            </div>
          </div>
          <FormGroup label="Description" labelFor="product-description" intent={intent('description')} helperText={errors.description}>
            <TextArea id="product-description" rows={2} fill value={form.description} onChange={(e) => set('description', e.target.value)} />
          </FormGroup>
          <FormGroup label="Tags" labelFor="product-tags" intent={intent('tags')} helperText={errors.tags ?? 'Press Enter or a comma after each tag.'}>
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
          <FormGroup label="Additional Images">
            <ImageListField images={form.associatedImages} onChange={(images) => set('associatedImages', images)} />
          </FormGroup>

          {isCard && (
            <section className="product-form-card" aria-label="E-greeting card">
              <h4 className="product-form-section-title">E-Greeting Card</h4>
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
            </section>
          )}
        </DialogBody>
        <DialogFooter
          actions={[
            <Button key="cancel" text="Cancel" onClick={onClose} />,
            <Button key="save" type="submit" intent="primary" icon="floppy-disk" text="Save" loading={saving} />,
          ]}
        />
      </form>
      <FontPickerDialog isOpen={pickingFont} onClose={() => setPickingFont(false)} selectedFont={form.fontName} onChange={(chosen) => set('fontName', chosen.name)} />
    </Dialog>
  );
}

/** Tags are kept once whatever their case, as the server keeps them. */
function dedupe(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags
    .map((t) => t.trim())
    .filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}
