import { describe, expect, it } from 'vitest';
import { MESSAGE_PLACEMENTS, normalisePrice, POSITIVE, REQUIRED, validateProductForm } from '../../web/src/admin/catalogue/product-form/product-form-rules.js';

describe('price normalisation on leaving the field', () => {
  it.each([
    ['12', '12.00'],
    ['12.5', '12.50'],
    ['12.345', '12.35'],
    [' 7.1 ', '7.10'],
    ['$4.2', '4.20'],
    ['1,299.9', '1299.90'],
    ['.5', '0.50'],
    ['abc', '0.00'],
    ['', '0.00'],
    ['12abc', '0.00'],
  ])('%j becomes %j', (raw, expected) => expect(normalisePrice(raw)).toBe(expected));
});

describe('product form validation', () => {
  it('needs a name and a positive price', () => {
    expect(validateProductForm({ name: 'Birthday card', price: '4.99' })).toEqual({});
    expect(validateProductForm({ name: '  ', price: '4.99' })).toEqual({ name: REQUIRED });
    for (const price of ['0', '0.00', '-1', '', 'abc']) expect(validateProductForm({ name: 'Card', price })).toEqual({ price: POSITIVE });
    expect(validateProductForm({ name: '', price: '' })).toEqual({ name: 'Required.', price: 'Must be a positive number.' });
  });

  it('offers the eight message placements of the spec', () => {
    expect(MESSAGE_PLACEMENTS.map((p) => p.label)).toEqual([
      'Top Left', 'Top Center', 'Top Right', 'Middle Left', 'Middle Center', 'Middle Right', 'Bottom Left', 'Bottom Right',
    ]);
  });
});
