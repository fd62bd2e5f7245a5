import { useState } from 'react';
import { FormGroup, InputGroup, Tab, Tabs, TextArea, type TabId } from '@blueprintjs/core';
import { LOCALE_NAMES, MAX_MESSAGE_LENGTH } from '@rules';
import { TRANSLATION_LOCALES } from '@rules/schemas';
import { DescriptionField, NameField } from '../catalogue/product-form/ProductFormParts';
import type { TranslatedContent, TranslationLocale } from '../catalogue/product-form/product-form-state';
import type { ProductFormApi } from '../catalogue/product-form/use-product-form';

/**
 * The product's words in each of the shop's languages (contract section 20): English, required, then
 * German, French and Spanish, each optional field showing the English as its placeholder (what
 * shoppers read in that language while it is left empty).
 */
export function ProductContentTabs({ api, isCard, autoFocus }: { api: ProductFormApi; isCard: boolean; autoFocus: boolean }) {
  const [tab, setTab] = useState<TabId>('en');
  return (
    <Tabs id="product-content" className="product-content-tabs" selectedTabId={tab} onChange={setTab} animate={false} renderActiveTabPanelOnly>
      <Tab
        id="en"
        title={LOCALE_NAMES.en}
        panel={
          <>
            <NameField api={api} autoFocus={autoFocus} />
            <DescriptionField api={api} rows={5} />
            {isCard && (
              <FormGroup label="Default message" labelFor="product-default-message" labelInfo="(optional)" helperText="What the card's message starts as in the shop; the shopper writes over it.">
                <TextArea id="product-default-message" rows={3} fill maxLength={MAX_MESSAGE_LENGTH} value={api.form.defaultMessage} onChange={(e) => api.set('defaultMessage', e.target.value)} />
              </FormGroup>
            )}
          </>
        }
      />
      {TRANSLATION_LOCALES.map((locale) => (
        <Tab key={locale} id={locale} title={LOCALE_NAMES[locale]} panel={<TranslationFields api={api} locale={locale} isCard={isCard} />} />
      ))}
    </Tabs>
  );
}

function TranslationFields({ api: { form, set }, locale, isCard }: { api: ProductFormApi; locale: TranslationLocale; isCard: boolean }) {
  const content = form.translations[locale];
  const change = (field: keyof TranslatedContent, value: string) => set('translations', { ...form.translations, [locale]: { ...content, [field]: value } });
  const hint = 'Left empty, shoppers read the English.';
  return (
    <>
      <FormGroup label="Name" labelFor={`product-name-${locale}`} labelInfo="(optional)" helperText={hint}>
        <InputGroup id={`product-name-${locale}`} lang={locale} value={content.name} placeholder={form.name} onValueChange={(v) => change('name', v)} maxLength={200} />
      </FormGroup>
      <FormGroup label="Description" labelFor={`product-description-${locale}`} labelInfo="(optional)">
        <TextArea id={`product-description-${locale}`} lang={locale} rows={5} fill value={content.description} placeholder={form.description} onChange={(e) => change('description', e.target.value)} />
      </FormGroup>
      {isCard && (
        <FormGroup label="Default message" labelFor={`product-default-message-${locale}`} labelInfo="(optional)">
          <TextArea id={`product-default-message-${locale}`} lang={locale} rows={3} fill maxLength={MAX_MESSAGE_LENGTH} value={content.defaultMessage} placeholder={form.defaultMessage} onChange={(e) => change('defaultMessage', e.target.value)} />
        </FormGroup>
      )}
    </>
  );
}
