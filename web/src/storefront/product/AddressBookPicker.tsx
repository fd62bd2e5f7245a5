import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { MenuItem } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { MultiSelect, type ItemRenderer } from '@blueprintjs/select';
import '@blueprintjs/select/lib/css/blueprint-select.css';
import { MAX_RECIPIENTS_PER_LINE } from '@rules';
import type { CardRecipient } from '../cart/cart-lines';
import { useDebounced } from '../common/use-debounced';
import { ContactPickerQuery } from './address-book-operations';

interface PickedContact {
  id: number;
  name: string;
  email: string;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * "From address book": a multi-select that searches the signed-in shopper's contacts on the server
 * as they type; each contact picked becomes a recipient of the card (its tag removed, it is one no
 * more). Recipients typed by hand stay as they are.
 */
export default function AddressBookPicker({ recipients, onChange }: { recipients: CardRecipient[]; onChange: (recipients: CardRecipient[]) => void }) {
  const [query, setQuery] = useState('');
  const intl = useIntl();
  const search = useDebounced(query, 200);
  const { data, loading } = useQuery(ContactPickerQuery, { variables: { search: search || null }, fetchPolicy: 'cache-and-network' });
  const contacts: PickedContact[] = data?.contacts.edges.map((edge) => edge.node) ?? [];
  const picked: PickedContact[] = recipients.flatMap((r) => (r.contactId ? [{ id: r.contactId, name: r.name, email: r.email }] : []));
  const isPicked = (contact: PickedContact) => recipients.some((r) => sameAddress(r.email, contact.email));

  const add = (contact: PickedContact) => {
    if (isPicked(contact)) {
      remove(contact);
      return;
    }
    if (recipients.length >= MAX_RECIPIENTS_PER_LINE) return;
    const added = { name: contact.name, email: contact.email, contactId: contact.id };
    // The empty first row the form starts with is filled rather than left above.
    const blank = recipients.findIndex((r) => !r.name.trim() && !r.email.trim());
    onChange(blank === -1 ? [...recipients, added] : recipients.map((r, i) => (i === blank ? added : r)));
  };
  const remove = (contact: PickedContact) => {
    const rest = recipients.filter((r) => !sameAddress(r.email, contact.email));
    onChange(rest.length ? rest : [{ name: '', email: '' }]);
  };

  const renderItem: ItemRenderer<PickedContact> = (contact, { handleClick, handleFocus, modifiers }) =>
    modifiers.matchesPredicate ? (
      <MenuItem
        key={contact.id}
        roleStructure="listoption"
        selected={isPicked(contact)}
        active={modifiers.active}
        disabled={modifiers.disabled}
        text={contact.name}
        label={contact.email}
        onClick={handleClick}
        onFocus={handleFocus}
      />
    ) : null;

  return (
    <div className="address-book-picker">
      <MultiSelect<PickedContact>
        fill
        items={contacts}
        selectedItems={picked}
        itemRenderer={renderItem}
        itemsEqual={(a, b) => sameAddress(a.email, b.email)}
        onItemSelect={add}
        onRemove={remove}
        tagRenderer={(contact) => contact.name}
        query={query}
        onQueryChange={setQuery}
        resetOnSelect
        placeholder={intl.formatMessage({ id: 'product.addressBook.placeholder', defaultMessage: 'Search your address book…' })}
        noResults={<MenuItem disabled roleStructure="listoption" text={loading ? intl.formatMessage({ id: 'product.addressBook.searching', defaultMessage: 'Searching…' }) : search ? intl.formatMessage({ id: 'product.addressBook.noMatch', defaultMessage: 'No contact matches.' }) : intl.formatMessage({ id: 'product.addressBook.empty', defaultMessage: 'Your address book is empty.' })} />}
        popoverProps={{ minimal: true, matchTargetWidth: true }}
        tagInputProps={{ inputProps: { 'aria-label': intl.formatMessage({ id: 'product.addressBook.label', defaultMessage: 'Search your address book' }) }, tagProps: { minimal: true } }}
      />
    </div>
  );
}
