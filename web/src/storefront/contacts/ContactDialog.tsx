import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, NumericInput, Switch } from '@blueprintjs/core';
import { BIRTHDAY, DEFAULT_REMIND_DAYS, MAX_OCCASIONS, MAX_REMIND_DAYS, MIN_REMIND_DAYS, daysInMonth, isEmail, isOccasionDate } from '@rules';
import { errorField } from '../../apollo/errors';
import { useErrorText } from '../../i18n/input-messages';
import type { ContactsPage_ContactFragment as ContactNode } from '../../apollo/generated/graphql';
import { snackbar } from '../../common/toaster';
import { monthName, occasionLabel, storedOccasionLabel } from './contact-format';
import { updateContactLists } from './contacts-cache';
import { CreateContactMutation, UpdateContactMutation } from './contacts-operations';

interface OccasionDraft {
  label: string;
  month: number;
  day: number;
  year: string;
  remind: boolean;
  remindDaysBefore: number;
}

/** The form's fields for a contact, its occasions' labels in the page's language. */
const draftOf = (intl: IntlShape, contact: ContactNode | null): { name: string; email: string; occasions: OccasionDraft[] } => ({
  name: contact?.name ?? '',
  email: contact?.email ?? '',
  occasions: (contact?.occasions ?? []).map((o) => ({ label: occasionLabel(intl, o.label), month: o.month, day: o.day, year: o.year ? String(o.year) : '', remind: o.remind, remindDaysBefore: o.remindDaysBefore })),
});

const newOccasion = (intl: IntlShape, first: boolean): OccasionDraft => ({ label: first ? occasionLabel(intl, BIRTHDAY) : '', month: 1, day: 1, year: '', remind: true, remindDaysBefore: DEFAULT_REMIND_DAYS });

/** The form's own checks (the server checks again): a name, an address, and real days. */
function validate(intl: IntlShape, draft: ReturnType<typeof draftOf>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!draft.name.trim()) errors['input.name'] = intl.formatMessage({ id: 'contacts.check.name', defaultMessage: 'Enter a name.' });
  if (!isEmail(draft.email)) errors['input.email'] = intl.formatMessage({ id: 'contacts.check.email', defaultMessage: 'Enter an e-mail address.' });
  draft.occasions.forEach((o, i) => {
    if (!o.label.trim()) errors[`input.occasions.${i}.label`] = intl.formatMessage({ id: 'contacts.check.occasion', defaultMessage: 'Name the occasion.' });
    const year = o.year.trim() ? Number(o.year) : null;
    if (year !== null && (!Number.isInteger(year) || year < 1900 || year > 2100)) errors[`input.occasions.${i}.year`] = intl.formatMessage({ id: 'contacts.check.year', defaultMessage: 'A year from 1900, or none.' });
    else if (!isOccasionDate({ month: o.month, day: o.day, year }))
      errors[`input.occasions.${i}.day`] = year ? intl.formatMessage({ id: 'contacts.check.noSuchDayInYear', defaultMessage: '{year} has no such day.' }, { year: String(year) }) : intl.formatMessage({ id: 'contacts.input.noSuchDay', defaultMessage: 'There is no such day.' });
  });
  return errors;
}

/** Add or change a contact: name, address and occasions, each with "Remind me" N days before (or off). */
export function ContactDialog({ contact, isOpen, onClose }: { contact: ContactNode | null; isOpen: boolean; onClose: () => void }) {
  const intl = useIntl();
  const errorText = useErrorText();
  const [draft, setDraft] = useState(() => draftOf(intl, contact));
  const [shownFor, setShownFor] = useState<number | null | undefined>(undefined);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [create, created] = useMutation(CreateContactMutation, { update: (cache, { data }) => data && updateContactLists(cache, { added: data.createContact }) });
  const [update, updated] = useMutation(UpdateContactMutation, { update: (cache, { data }) => data && updateContactLists(cache, { changed: data.updateContact }) });
  // The form starts afresh for each contact it opens with.
  const key = isOpen ? (contact?.id ?? null) : undefined;
  if (key !== shownFor) {
    setShownFor(key);
    setDraft(draftOf(intl, contact));
    setErrors({});
    setFailure(null);
  }

  const setOccasion = (index: number, patch: Partial<OccasionDraft>) => setDraft((d) => ({ ...d, occasions: d.occasions.map((o, i) => (i === index ? { ...o, ...patch } : o)) }));
  const field = (name: string) => ({ intent: errors[name] ? ('danger' as const) : ('none' as const), helperText: errors[name] });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(intl, draft);
    setErrors(found);
    if (Object.keys(found).length) return;
    const input = {
      name: draft.name.trim(),
      email: draft.email.trim(),
      occasions: draft.occasions.map((o) => ({ label: storedOccasionLabel(intl, o.label), month: o.month, day: o.day, year: o.year.trim() ? Number(o.year) : null, remind: o.remind, remindDaysBefore: o.remindDaysBefore })),
    };
    try {
      if (contact) await update({ variables: { id: contact.id, input } });
      else await create({ variables: { input } });
      void snackbar(contact ? intl.formatMessage({ id: 'contacts.saved', defaultMessage: '{name} was saved' }, { name: input.name }) : intl.formatMessage({ id: 'contacts.added', defaultMessage: '{name} is in your address book' }, { name: input.name }));
      onClose();
    } catch (error) {
      const at = errorField(error);
      const message = errorText(error, intl.formatMessage({ id: 'contacts.saveFailed', defaultMessage: 'The contact could not be saved.' }));
      if (at) setErrors({ [at]: message });
      else setFailure(message);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={contact ? intl.formatMessage({ id: 'contacts.editTitle', defaultMessage: 'Edit contact' }) : intl.formatMessage({ id: 'contacts.add', defaultMessage: 'Add contact' })} icon="person" className="contact-dialog">
      <form onSubmit={save} noValidate>
        <DialogBody>
          <div className="contact-dialog-row">
            <FormGroup label={intl.formatMessage({ id: 'contacts.name', defaultMessage: 'Name' })} labelFor="contact-name" {...field('input.name')}>
              <InputGroup id="contact-name" value={draft.name} maxLength={100} onValueChange={(name) => setDraft((d) => ({ ...d, name }))} intent={field('input.name').intent} autoFocus />
            </FormGroup>
            <FormGroup label={intl.formatMessage({ id: 'auth.email', defaultMessage: 'E-mail' })} labelFor="contact-email" {...field('input.email')}>
              <InputGroup id="contact-email" type="email" value={draft.email} onValueChange={(email) => setDraft((d) => ({ ...d, email }))} intent={field('input.email').intent} />
            </FormGroup>
          </div>
          <h3 className="contact-dialog-heading">
            <FormattedMessage id="contacts.occasions" defaultMessage="Occasions" />
          </h3>
          {draft.occasions.length === 0 && (
            <p className="muted">
              <FormattedMessage id="contacts.occasions.none" defaultMessage="No occasions yet: add a birthday to be reminded of it." />
            </p>
          )}
          <ul className="contact-occasions" aria-label={intl.formatMessage({ id: 'contacts.occasions', defaultMessage: 'Occasions' })}>
            {draft.occasions.map((o, i) => (
              <li key={i} className="contact-occasion" aria-label={intl.formatMessage({ id: 'contacts.occasion.number', defaultMessage: 'Occasion {number}' }, { number: i + 1 })}>
                <div className="contact-occasion-date">
                  <FormGroup label={intl.formatMessage({ id: 'contacts.occasion', defaultMessage: 'Occasion' })} labelFor={`occasion-label-${i}`} {...field(`input.occasions.${i}.label`)}>
                    <InputGroup id={`occasion-label-${i}`} value={o.label} maxLength={40} placeholder={occasionLabel(intl, BIRTHDAY)} onValueChange={(label) => setOccasion(i, { label })} intent={field(`input.occasions.${i}.label`).intent} />
                  </FormGroup>
                  <FormGroup label={intl.formatMessage({ id: 'contacts.occasion.day', defaultMessage: 'Day' })} labelFor={`occasion-day-${i}`} {...field(`input.occasions.${i}.day`)}>
                    <HTMLSelect id={`occasion-day-${i}`} value={o.day} onChange={(e) => setOccasion(i, { day: Number(e.currentTarget.value) })} options={Array.from({ length: daysInMonth(o.month) }, (_, d) => d + 1)} />
                  </FormGroup>
                  <FormGroup label={intl.formatMessage({ id: 'contacts.occasion.month', defaultMessage: 'Month' })} labelFor={`occasion-month-${i}`}>
                    <HTMLSelect id={`occasion-month-${i}`} value={o.month} onChange={(e) => setOccasion(i, { month: Number(e.currentTarget.value), day: Math.min(o.day, daysInMonth(Number(e.currentTarget.value))) })} options={Array.from({ length: 12 }, (_, m) => ({ value: m + 1, label: monthName(intl, m + 1) }))} />
                  </FormGroup>
                  <FormGroup label={intl.formatMessage({ id: 'contacts.occasion.year', defaultMessage: 'Year' })} labelFor={`occasion-year-${i}`} labelInfo={intl.formatMessage({ id: 'checkout.card.optional', defaultMessage: '(optional)' })} {...field(`input.occasions.${i}.year`)}>
                    <InputGroup id={`occasion-year-${i}`} inputMode="numeric" maxLength={4} value={o.year} onValueChange={(year) => setOccasion(i, { year: year.replace(/\D/g, '') })} intent={field(`input.occasions.${i}.year`).intent} className="contact-year" />
                  </FormGroup>
                </div>
                <div className="contact-occasion-remind">
                  <Switch checked={o.remind} label={intl.formatMessage({ id: 'contacts.occasion.remind', defaultMessage: 'Remind me' })} onChange={(e) => setOccasion(i, { remind: e.currentTarget.checked })} />
                  <NumericInput
                    aria-label={intl.formatMessage({ id: 'contacts.occasion.daysBeforeLabel', defaultMessage: 'Days before' })}
                    disabled={!o.remind}
                    min={MIN_REMIND_DAYS}
                    max={MAX_REMIND_DAYS}
                    value={o.remindDaysBefore}
                    onValueChange={(days) => Number.isFinite(days) && setOccasion(i, { remindDaysBefore: Math.min(Math.max(Math.round(days), MIN_REMIND_DAYS), MAX_REMIND_DAYS) })}
                    clampValueOnBlur
                    className="contact-remind-days"
                  />
                  <span className={o.remind ? undefined : 'muted'}>
                    <FormattedMessage id="contacts.occasion.daysBefore" defaultMessage="days before" />
                  </span>
                  <Button variant="minimal" icon="trash" aria-label={o.label ? intl.formatMessage({ id: 'contacts.occasion.remove', defaultMessage: 'Remove {label}' }, { label: o.label }) : intl.formatMessage({ id: 'contacts.occasion.removeThis', defaultMessage: 'Remove this occasion' })} onClick={() => setDraft((d) => ({ ...d, occasions: d.occasions.filter((_, j) => j !== i) }))} />
                </div>
              </li>
            ))}
          </ul>
          <Button variant="outlined" icon="add" text={intl.formatMessage({ id: 'contacts.occasion.add', defaultMessage: 'Add occasion' })} disabled={draft.occasions.length >= MAX_OCCASIONS} onClick={() => setDraft((d) => ({ ...d, occasions: [...d.occasions, newOccasion(intl, d.occasions.length === 0)] }))} />
          {failure && (
            <Callout intent="danger" className="contact-dialog-failure">
              {failure}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={intl.formatMessage({ id: 'account.cancel', defaultMessage: 'Cancel' })} onClick={onClose} />
              <Button type="submit" intent="primary" text={intl.formatMessage({ id: 'account.save', defaultMessage: 'Save' })} loading={created.loading || updated.loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
