import { useEffect, useMemo, useRef, useState } from 'react';
import { Dialog, DialogBody, FormGroup, InputGroup, Tag } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { FONT_CATALOGUE } from './font-catalogue';
import { fontFamilyCss } from './font-css';
import { filterFonts } from './font-filter';
import { loadFontStylesheet } from './font-stylesheet';
import { DEFAULT_PICKER_FONT, type FontEntry } from './font-types';
import './font-picker.css';

/**
 * The font picker: a 'Search fonts' box over the catalogue, each name drawn in its own typeface
 * (loaded as it scrolls into view, subset to the name's letters). Choosing a font emits it and loads
 * its whole stylesheet.
 */
export function FontPickerDialog({
  isOpen,
  onClose,
  currentFont = DEFAULT_PICKER_FONT,
  selectedFont,
  onChange,
}: {
  isOpen: boolean;
  onClose: () => void;
  currentFont?: string;
  selectedFont?: string;
  onChange: (font: FontEntry) => void;
}) {
  const [search, setSearch] = useState('');
  const fonts = useMemo(() => filterFonts(FONT_CATALOGUE, search), [search]);
  const selected = selectedFont ?? currentFont;
  const listRef = useRef<HTMLUListElement>(null);
  const intl = useIntl();

  // Scroll the selected font into view when the picker opens.
  useEffect(() => {
    if (!isOpen) return;
    setSearch('');
    const frame = requestAnimationFrame(() => listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'center' }));
    return () => cancelAnimationFrame(frame);
  }, [isOpen]);

  // Load each visible name's typeface, subset to its letters.
  useEffect(() => {
    const list = listRef.current;
    if (!isOpen || !list) return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          const name = (entry.target as HTMLElement).dataset.font!;
          loadFontStylesheet(name, name);
          observer.unobserve(entry.target);
        }
      },
      { root: list, rootMargin: '200px' },
    );
    list.querySelectorAll('[data-font]').forEach((item) => observer.observe(item));
    return () => observer.disconnect();
  }, [isOpen, fonts]);

  const choose = (font: FontEntry) => {
    loadFontStylesheet(font.name);
    onChange(font);
    onClose();
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={intl.formatMessage({ id: 'common.fontPicker.title', defaultMessage: 'Choose a font' })} icon="font" className="font-picker">
      <DialogBody>
        <FormGroup label={intl.formatMessage({ id: 'common.fontPicker.search', defaultMessage: 'Search fonts' })} labelFor="font-search">
          <InputGroup id="font-search" type="search" leftIcon="search" value={search} onValueChange={setSearch} autoFocus />
        </FormGroup>
        <ul className="font-picker-list" ref={listRef} role="listbox" aria-label={intl.formatMessage({ id: 'common.fontPicker.fonts', defaultMessage: 'Fonts' })}>
          {fonts.map((font) => (
            <li
              key={font.sane}
              role="option"
              aria-selected={font.name === selected}
              data-font={font.name}
              tabIndex={0}
              className={`font-picker-item${font.name === selected ? ' selected' : ''}`}
              onClick={() => choose(font)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), choose(font))}
            >
              <span style={{ fontFamily: fontFamilyCss(font) }}>{font.name}</span>
              <Tag minimal>{font.category}</Tag>
            </li>
          ))}
          {fonts.length === 0 && <li className="font-picker-empty"><FormattedMessage id="common.fontPicker.noMatch" defaultMessage="No font matches “{search}”." values={{ search }} /></li>}
        </ul>
      </DialogBody>
    </Dialog>
  );
}
