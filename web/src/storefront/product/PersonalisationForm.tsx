import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Classes, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, Spinner } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CardPersonalisation, CardRecipient } from '../cart/cart-lines';
import { DELIVERY_HOURS, FIRST_NAME_PLACEHOLDER, latestDeliveryDay, MAX_RECIPIENTS_PER_LINE, NAME_PLACEHOLDER } from '@rules';
import { useAuth } from '../../auth/auth-store';
import { MAX_MESSAGE, emptyRecipient, localDay, trimmedPersonalisation, validatePersonalisation, type PersonalisationErrors } from './personalisation-rules';
import { GroupCardFields } from '../group-card/GroupCardFields';
import { formatPrice, lineTotal } from '../common/price';


// The address book's search (Blueprint's select package and its query) loads only when a signed-in shopper opens it.
const AddressBookPicker = lazy(() => import('./AddressBookPicker'));

/** Whom the card goes to (one or many), from whom, with what message and when; it reports each change for the live preview. */
export function PersonalisationForm({
  value,
  onChange,
  onSubmit,
  onPreview,
  submitText,
  price,
}: {
  value: CardPersonalisation;
  onChange: (value: CardPersonalisation) => void;
  onSubmit: (value: CardPersonalisation) => void;
  /** "Preview": the card as its recipient will see it, once the form has nothing wrong. */
  onPreview?: (value: CardPersonalisation) => void;
  submitText: string;
  /** The card's price, for the live total beside the button. */
  price: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  // Each refused submit moves the focus to the first field that says what is wrong.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (!refusals) return;
    const wrong = form.current?.querySelector<HTMLElement>('.bp6-intent-danger input, .bp6-intent-danger textarea, .bp6-intent-danger select, textarea.bp6-intent-danger, input.bp6-intent-danger');
    wrong?.focus();
  }, [refusals]);
  const [errors, setErrors] = useState<PersonalisationErrors>({});
  const [tried, setTried] = useState(false);
  const [picking, setPicking] = useState(false);
  const { user } = useAuth();
  const intl = useIntl();
  const today = localDay(new Date());

  const change = (patch: Partial<CardPersonalisation>) => {
    const next = { ...value, ...patch };
    onChange(next);
    if (tried) setErrors(validatePersonalisation(next, new Date()));
  };
  const setRecipients = (recipients: CardRecipient[]) => change({ recipients });
  const changeRecipient = (index: number, patch: Partial<CardRecipient>) =>
    // A typed change makes the recipient one of the shopper's own, no longer the contact it came from.
    setRecipients(value.recipients.map((r, i) => (i === index ? { name: r.name, email: r.email, ...patch } : r)));
  const removeRecipient = (index: number) => setRecipients(value.recipients.length > 1 ? value.recipients.filter((_, i) => i !== index) : [emptyRecipient()]);

  /** Checks the form: the card as entered when all is well, else the fields say what is wrong and the first takes the focus. */
  const checked = (then: (value: CardPersonalisation) => void) => {
    const found = validatePersonalisation(value, new Date());
    setErrors(found);
    setTried(true);
    if (Object.keys(found).length === 0) then(trimmedPersonalisation(value));
    else setRefusals((n) => n + 1);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    checked(onSubmit);
  };

  const field = (name: string) => ({ intent: errors[name] ? ('danger' as const) : ('none' as const), helperText: errors[name] });
  const length = value.message.length;
  const full = value.recipients.length >= MAX_RECIPIENTS_PER_LINE;
  const many = value.recipients.length > 1;

  return (
    <form ref={form} className="personalisation-form" onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'product.form.label', defaultMessage: 'Personalise your card' })}>
      <fieldset className="personalisation-recipients" aria-label={intl.formatMessage({ id: 'product.form.recipients', defaultMessage: 'Recipients' })}>
        {value.recipients.map((recipient, index) => {
          // The first recipient keeps the form's plain labels; the others are numbered.
          const number = index + 1;
          return (
            <div className="personalisation-row personalisation-recipient" key={index}>
              <FormGroup label={index === 0 ? intl.formatMessage({ id: 'product.form.recipientName', defaultMessage: "Recipient's name" }) : intl.formatMessage({ id: 'product.form.recipientNameNumbered', defaultMessage: "Recipient {number}'s name" }, { number })} labelFor={`recipient-name-${index}`} {...field(`recipients.${index}.name`)}>
                <InputGroup id={`recipient-name-${index}`} value={recipient.name} maxLength={100} onValueChange={(name) => changeRecipient(index, { name })} intent={field(`recipients.${index}.name`).intent} />
              </FormGroup>
              <FormGroup label={index === 0 ? intl.formatMessage({ id: 'product.form.recipientEmail', defaultMessage: "Recipient's e-mail" }) : intl.formatMessage({ id: 'product.form.recipientEmailNumbered', defaultMessage: "Recipient {number}'s e-mail" }, { number })} labelFor={`recipient-email-${index}`} {...field(`recipients.${index}.email`)}>
                <InputGroup
                  id={`recipient-email-${index}`}
                  type="email"
                  value={recipient.email}
                  onValueChange={(email) => changeRecipient(index, { email })}
                  intent={field(`recipients.${index}.email`).intent}
                  rightElement={many ? <Button variant="minimal" icon="cross" aria-label={recipient.name ? intl.formatMessage({ id: 'product.form.removeNamed', defaultMessage: 'Remove {name}' }, { name: recipient.name }) : intl.formatMessage({ id: 'product.form.removeNumbered', defaultMessage: 'Remove recipient {number}' }, { number })} onClick={() => removeRecipient(index)} /> : undefined}
                />
              </FormGroup>
            </div>
          );
        })}
        <div className="personalisation-recipient-actions">
          {/* A group card goes to one recipient: the whole group signs that one card. */}
          <Button variant="outlined" icon="add" text={intl.formatMessage({ id: 'product.form.addRecipient', defaultMessage: 'Add recipient' })} disabled={full || Boolean(value.groupCard)} onClick={() => setRecipients([...value.recipients, emptyRecipient()])} />
          {user && <Button variant="outlined" icon="book" text={intl.formatMessage({ id: 'product.form.fromAddressBook', defaultMessage: 'From address book' })} active={picking} onClick={() => setPicking((open) => !open)} />}
          {many && <span className="muted personalisation-count"><FormattedMessage id="product.form.recipientCount" defaultMessage="{count, plural, one {# recipient: one card} other {# recipients: one card each}}" values={{ count: value.recipients.length }} /></span>}
        </div>
        {errors.recipients && <p className={`${Classes.FORM_HELPER_TEXT} ${Classes.INTENT_DANGER}`}>{errors.recipients}</p>}
        {user && picking && (
          <Suspense fallback={<Spinner size={20} />}>
            <AddressBookPicker recipients={value.recipients} onChange={setRecipients} />
          </Suspense>
        )}
      </fieldset>
      <FormGroup label={intl.formatMessage({ id: 'product.form.senderName', defaultMessage: 'Your name' })} labelFor="sender-name" {...field('senderName')}>
        <InputGroup id="sender-name" value={value.senderName} maxLength={100} onValueChange={(senderName) => change({ senderName })} intent={field('senderName').intent} />
      </FormGroup>
      <FormGroup
        label={intl.formatMessage({ id: 'product.form.message', defaultMessage: 'Your message' })}
        labelFor="card-message"
        intent={field('message').intent}
        helperText={
          errors.message ??
          intl.formatMessage(
            { id: 'product.form.messageHelp', defaultMessage: "{length} / {max} · write {name} where each recipient's name goes ({firstName} for the first name only)" },
            { length, max: MAX_MESSAGE, name: NAME_PLACEHOLDER, firstName: FIRST_NAME_PLACEHOLDER },
          )
        }
      >
        {/* Blueprint's text area as its classes: its component measures the page (a forced layout) as it mounts. */}
        <textarea
          id="card-message"
          className={[Classes.INPUT, Classes.TEXT_AREA, Classes.FILL, Classes.intentClass(field('message').intent)].filter(Boolean).join(' ')}
          rows={5}
          value={value.message}
          maxLength={MAX_MESSAGE}
          placeholder={intl.formatMessage({ id: 'product.form.messagePlaceholder', defaultMessage: 'Dear {name}, …' }, { name: NAME_PLACEHOLDER })}
          onChange={(event) => change({ message: event.currentTarget.value })}
          aria-describedby="card-message-count"
        />
      </FormGroup>
      <FormGroup label={intl.formatMessage({ id: 'product.form.delivery', defaultMessage: 'Delivery' })} intent={field('deliveryDate').intent === 'danger' || field('deliveryTime').intent === 'danger' ? 'danger' : 'none'} helperText={errors.deliveryDate ?? errors.deliveryTime}>
        {/* A name of its own: Blueprint's default counts the groups a process has drawn, so the server's page (drawn once, kept) and the browser would disagree. */}
        <RadioGroup
          inline
          name="card-delivery"
          selectedValue={value.deliveryDate === null ? 'now' : 'later'}
          onChange={(event) => change({ deliveryDate: event.currentTarget.value === 'now' ? null : (value.deliveryDate ?? today) })}
        >
          <Radio value="now" label={intl.formatMessage({ id: 'product.form.sendNow', defaultMessage: 'Send now' })} />
          <Radio value="later" label={intl.formatMessage({ id: 'product.form.later', defaultMessage: 'On a later day' })} />
        </RadioGroup>
        {value.deliveryDate !== null && (
          <div className="personalisation-when">
            <InputGroup type="date" aria-label={intl.formatMessage({ id: 'product.form.deliveryDate', defaultMessage: 'Delivery date' })} value={value.deliveryDate} min={today} max={latestDeliveryDay(today)} onValueChange={(deliveryDate) => change({ deliveryDate })} intent={field('deliveryDate').intent} />
            <HTMLSelect aria-label={intl.formatMessage({ id: 'product.form.deliveryTime', defaultMessage: 'Delivery time' })} value={value.deliveryTime} onChange={(event) => change({ deliveryTime: event.currentTarget.value })} options={DELIVERY_HOURS.map((hour) => ({ value: hour, label: hour }))} />
            <span className="muted">
              <FormattedMessage id="product.form.yourTime" defaultMessage="your time" />
            </span>
          </div>
        )}
      </FormGroup>
      <GroupCardFields value={value} onChange={change} errors={errors} />
      <div className="personalisation-submit">
        <Button type="submit" intent="primary" size="large" icon="shopping-cart" text={submitText} />
        {onPreview && <Button size="large" variant="outlined" icon="eye-open" text={intl.formatMessage({ id: 'product.form.preview', defaultMessage: 'Preview' })} onClick={() => checked(onPreview)} />}
        <span className="personalisation-total" aria-live="polite">
          {many ? (
            <FormattedMessage
              id="product.form.total"
              defaultMessage="{count, plural, one {# card} other {# cards}} × {price} = <strong>{total}</strong>"
              values={{ count: value.recipients.length, price: formatPrice(price), total: formatPrice(lineTotal(price, value.recipients.length)), strong: (chunks) => <strong>{chunks}</strong> }}
            />
          ) : (
            <strong>{formatPrice(price)}</strong>
          )}
        </span>
      </div>
    </form>
  );
}
