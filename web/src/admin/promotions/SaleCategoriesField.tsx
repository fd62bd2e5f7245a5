import { useState } from 'react';
import { MenuItem, type Intent } from '@blueprintjs/core';
import { MultiSelect, type ItemRenderer } from '@blueprintjs/select';
import '@blueprintjs/select/lib/css/blueprint-select.css';
import { useCategoryOptions } from '../catalogue/category-options';

interface CategoryOption {
  id: number;
  label: string;
}

/** The categories a sale is for, each by its path ("Holidays › Christmas"), filtered by the words typed. */
export function SaleCategoriesField({ id, value, onChange, intent }: { id: string; value: number[]; onChange: (ids: number[]) => void; intent: Intent }) {
  const options = useCategoryOptions();
  const [query, setQuery] = useState('');
  const byId = new Map(options.map((option) => [option.id, option]));
  const chosen = value.map((categoryId) => byId.get(categoryId) ?? { id: categoryId, label: `Category ${categoryId}` });
  const toggle = (option: CategoryOption) => onChange(value.includes(option.id) ? value.filter((other) => other !== option.id) : [...value, option.id]);

  const renderItem: ItemRenderer<CategoryOption> = (option, { handleClick, handleFocus, modifiers }) =>
    modifiers.matchesPredicate ? <MenuItem key={option.id} roleStructure="listoption" selected={value.includes(option.id)} active={modifiers.active} text={option.label} onClick={handleClick} onFocus={handleFocus} /> : null;

  return (
    <MultiSelect<CategoryOption>
      fill
      items={options}
      selectedItems={chosen}
      itemRenderer={renderItem}
      itemsEqual="id"
      itemPredicate={(typed, option) => option.label.toLowerCase().includes(typed.trim().toLowerCase())}
      onItemSelect={toggle}
      onRemove={(option) => onChange(value.filter((other) => other !== option.id))}
      onClear={value.length ? () => onChange([]) : undefined}
      tagRenderer={(option) => option.label}
      query={query}
      onQueryChange={setQuery}
      resetOnSelect
      placeholder="Choose categories…"
      noResults={<MenuItem disabled roleStructure="listoption" text={options.length ? 'No category matches.' : 'No categories yet.'} />}
      popoverProps={{ minimal: true, matchTargetWidth: true }}
      tagInputProps={{ inputProps: { id }, intent: intent === 'danger' ? 'danger' : 'none', tagProps: { minimal: true } }}
    />
  );
}
