import { describe, expect, it } from 'vitest';
import type { ProductFormFieldsFragment } from '../../web/src/apollo/generated/graphql.js';
import { emptyProductForm, productFormFrom, toProductInput } from '../../web/src/admin/catalogue/product-form/product-form-state.js';

const image = { id: 7, fileName: 'a.png', filePath: 'uploads/a.png', friendlyName: 'A', thumbnailPath: 'uploads/a.thumb.webp', kind: 'IMAGE' as const, mimeType: 'image/png', size: 10 };
const song = { ...image, id: 9, fileName: 's.wav', filePath: 'uploads/s.wav', thumbnailPath: null, kind: 'AUDIO' as const, mimeType: 'audio/wav' };

function loaded(overrides: Partial<ProductFormFieldsFragment> = {}): ProductFormFieldsFragment {
  return {
    id: 1,
    name: 'Card',
    description: 'Nice',
    // What it sells for now (a running sale's price) differs from what the admin set: the form edits the latter.
    price: '3.60',
    regularPrice: '4.50',
    regularCompareAtPrice: null,
    status: 'ACTIVE',
    categoryId: 3,
    productTypeId: 1,
    mainImageThumbnailPath: null,
    sku: null,
    tags: ['a'],
    mainImage: image,
    associatedImages: [image],
    translations: [{ locale: 'de', name: 'Karte', description: '', defaultMessage: 'Alles Gute!' }],
    eGreetingCard: {
      messageLocation: 'TOP_LEFT',
      fontName: null,
      defaultMessage: 'All the best!',
      song1: song,
      song2: null,
      song3: null,
      coverImage: image,
      greetingImage: null,
      backImage: null,
      extraImage1: null,
      extraImage2: null,
      extraImage3: null,
    },
    ...overrides,
  };
}

describe('the product form state', () => {
  it('starts a new card with Roboto in the middle of the greeting', () => {
    expect(emptyProductForm()).toMatchObject({ name: '', price: '', fontName: 'Roboto', messageLocation: 'MIDDLE_CENTER', mainImage: null });
  });

  it('shows Open Sans for a loaded card that has no font, and the stored font otherwise', () => {
    expect(productFormFrom(loaded()).fontName).toBe('Open Sans');
    const withFont = loaded();
    withFont.eGreetingCard!.fontName = 'Pacifico';
    expect(productFormFrom(withFont).fontName).toBe('Pacifico');
  });

  it('sends greeting-card data only for the e-greeting card type', () => {
    const state = productFormFrom(loaded());
    const card = toProductInput(state, { categoryId: 3, productTypeId: 1 });
    expect(card).toMatchObject({ name: 'Card', price: '4.50', categoryId: 3, productTypeId: 1, mainImageId: 7, associatedImageIds: [7], tags: ['a'], sku: null });
    expect(card.eGreetingCard).toEqual({
      messageLocation: 'TOP_LEFT',
      fontName: 'Open Sans',
      defaultMessage: 'All the best!',
      song1Id: 9,
      song2Id: null,
      song3Id: null,
      coverImageId: 7,
      greetingImageId: null,
      backImageId: null,
      extraImage1Id: null,
      extraImage2Id: null,
      extraImage3Id: null,
    });
    expect(toProductInput(state, { categoryId: 3, productTypeId: 2 })).not.toHaveProperty('eGreetingCard');
  });

  it('sends every language it edits, the ones left empty included (the server keeps no empty translation)', () => {
    const state = productFormFrom(loaded());
    expect(state.translations).toEqual({ de: { name: 'Karte', description: '', defaultMessage: 'Alles Gute!' }, fr: { name: '', description: '', defaultMessage: '' }, es: { name: '', description: '', defaultMessage: '' } });
    expect(toProductInput(state, { categoryId: 3, productTypeId: 1 }).translations).toEqual([
      { locale: 'de', name: 'Karte', description: '', defaultMessage: 'Alles Gute!' },
      { locale: 'fr', name: '', description: '', defaultMessage: '' },
      { locale: 'es', name: '', description: '', defaultMessage: '' },
    ]);
    expect(emptyProductForm().defaultMessage).toBe('');
  });

  it('trims the name, price and SKU it sends', () => {
    const state = { ...emptyProductForm(), name: '  Card ', price: ' 3.00 ', sku: '  ' };
    expect(toProductInput(state, { categoryId: 1, productTypeId: 3 })).toMatchObject({ name: 'Card', price: '3.00', sku: null, mainImageId: null });
  });
});
