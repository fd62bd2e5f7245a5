/** The rules of the product form (seed.md section 5), as pure functions. */
import { MESSAGE_LOCATIONS, placementEnumName, placementLabel } from '@rules';
import type { MessageLocation } from '../../../apollo/generated/graphql';

export const REQUIRED = 'Required.';
export const POSITIVE = 'Must be a positive number.';
export const INVALID_FORM = 'Please fill in all required fields correctly.';
export const NO_CATEGORY = 'Please select a category for the new product.';

/** When the price field is left: two decimals; anything that is not a number becomes 0.00. */
export function normalisePrice(raw: string): string {
  const text = raw.trim().replace(/^\$/, '').replace(/,/g, '');
  const value = text === '' || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? NaN : Number(text);
  return Number.isFinite(value) ? value.toFixed(2) : '0.00';
}

export interface ProductFormValues {
  name: string;
  price: string;
}

export type ProductFormErrors = Partial<Record<keyof ProductFormValues, string>>;

/** Name is required; price is required and greater than zero. */
export function validateProductForm(values: ProductFormValues): ProductFormErrors {
  const errors: ProductFormErrors = {};
  if (!values.name.trim()) errors.name = REQUIRED;
  const price = values.price.trim() === '' ? NaN : Number(values.price.trim().replace(/^\$/, ''));
  if (!Number.isFinite(price) || price <= 0) errors.price = POSITIVE;
  return errors;
}

/** The eight placements of the message on the greeting image, as the form offers them. */
export const MESSAGE_PLACEMENTS: readonly { value: MessageLocation; label: string }[] = MESSAGE_LOCATIONS.map((location) => ({
  value: placementEnumName(location) as MessageLocation,
  label: placementLabel(location),
}));
