import { useCallback, useMemo, useState } from 'react';
import { errorCode, errorField, errorMessage } from '../../../apollo/errors';
import type { ProductInput } from '../../../apollo/generated/graphql';
import { INVALID_FORM, validateProductForm } from './product-form-rules';
import { toProductInput, type CardSlot, type PickedMedia, type ProductFormState } from './product-form-state';

export type FieldErrors = Partial<Record<'name' | 'price' | 'compareAtPrice' | 'sku' | 'description' | 'tags' | 'categoryId', string>>;

/** Server field names → the form's. */
const SERVER_FIELDS: Record<string, keyof FieldErrors> = { name: 'name', price: 'price', compareAtPrice: 'compareAtPrice', sku: 'sku', description: 'description', tags: 'tags', categoryId: 'categoryId' };

/** What the product form's parts share: the values, their setters and the errors to show. */
export interface ProductFormApi {
  form: ProductFormState;
  errors: FieldErrors;
  set: <K extends keyof ProductFormState>(key: K, value: ProductFormState[K]) => void;
  setSlot: (slot: CardSlot, file: PickedMedia | null) => void;
}

/**
 * The product form's state, as the dialog and the editor page both hold it: the rules' errors once
 * Save was pressed, the server's field errors on their fields (until the field changes), and whether
 * anything differs from what was loaded. `save` checks, saves through `onSubmit` (which throws on a
 * failure) and answers whether it saved.
 */
export function useProductForm(initial: ProductFormState) {
  const [form, setForm] = useState(initial);
  const [loaded, setLoaded] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const reset = useCallback((next: ProductFormState) => {
    setForm(next);
    setLoaded(next);
    setSubmitted(false);
    setServerErrors({});
    setFormError(null);
  }, []);

  const set: ProductFormApi['set'] = (key, value) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (key in serverErrors) setServerErrors((current) => ({ ...current, [key]: undefined }));
  };
  const setSlot = (slot: CardSlot, file: PickedMedia | null) => setForm((current) => ({ ...current, media: { ...current.media, [slot]: file } }));

  const ruleErrors = validateProductForm(form);
  const errors: FieldErrors = { ...(submitted ? ruleErrors : {}), ...Object.fromEntries(Object.entries(serverErrors).filter(([, v]) => v)) };
  const dirty = useMemo(() => JSON.stringify(form) !== JSON.stringify(loaded), [form, loaded]);

  const save = async (target: { categoryId: number; productTypeId: number }, onSubmit: (input: ProductInput) => Promise<void>): Promise<boolean> => {
    setSubmitted(true);
    if (Object.keys(ruleErrors).length) {
      setFormError(INVALID_FORM);
      return false;
    }
    setFormError(null);
    setSaving(true);
    try {
      await onSubmit(toProductInput(form, target));
      setLoaded(form);
      return true;
    } catch (error) {
      const field = errorField(error);
      if (field && SERVER_FIELDS[field]) setServerErrors({ [SERVER_FIELDS[field]]: errorMessage(error, '') });
      else if (errorCode(error) === 'BAD_USER_INPUT' || errorCode(error) === 'CONFLICT') setFormError(errorMessage(error, INVALID_FORM));
      return false;
    } finally {
      setSaving(false);
    }
  };

  const api: ProductFormApi = { form, errors, set, setSlot };
  return { api, form, dirty, saving, formError, reset, save };
}
