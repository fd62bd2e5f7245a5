import { useState, type FormEvent } from 'react';
import { Button, Classes, FormGroup, InputGroup, Radio, RadioGroup } from '@blueprintjs/core';
import type { CardPersonalisation } from '../cart/cart-lines';
import { earliestDeliveryDay, latestDeliveryDay } from '@rules';
import { MAX_MESSAGE, localDay, validatePersonalisation, type PersonalisationErrors } from './personalisation-rules';
import { GroupCardFields } from '../group-card/GroupCardFields';

/** Whom the card goes to, from whom, with what message and when; it reports each change for the live preview. */
export function PersonalisationForm({
  value,
  onChange,
  onSubmit,
  submitText,
}: {
  value: CardPersonalisation;
  onChange: (value: CardPersonalisation) => void;
  onSubmit: (value: CardPersonalisation) => void;
  submitText: string;
}) {
  const [errors, setErrors] = useState<PersonalisationErrors>({});
  const [tried, setTried] = useState(false);
  const today = new Date();
  const tomorrow = earliestDeliveryDay(localDay(today));

  const change = (patch: Partial<CardPersonalisation>) => {
    const next = { ...value, ...patch };
    onChange(next);
    if (tried) setErrors(validatePersonalisation(next, new Date()));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePersonalisation(value, new Date());
    setErrors(found);
    setTried(true);
    if (Object.keys(found).length === 0) onSubmit({ ...value, message: value.message.trim(), recipientName: value.recipientName.trim(), senderName: value.senderName.trim(), recipientEmail: value.recipientEmail.trim() });
  };

  const field = (name: keyof PersonalisationErrors) => ({ intent: errors[name] ? ('danger' as const) : ('none' as const), helperText: errors[name] });
  const length = value.message.length;

  return (
    <form className="personalisation-form" onSubmit={submit} noValidate aria-label="Personalise your card">
      <div className="personalisation-row">
        <FormGroup label="Recipient's name" labelFor="recipient-name" {...field('recipientName')}>
          <InputGroup id="recipient-name" value={value.recipientName} maxLength={100} onValueChange={(recipientName) => change({ recipientName })} intent={field('recipientName').intent} />
        </FormGroup>
        <FormGroup label="Recipient's e-mail" labelFor="recipient-email" {...field('recipientEmail')}>
          <InputGroup id="recipient-email" type="email" value={value.recipientEmail} onValueChange={(recipientEmail) => change({ recipientEmail })} intent={field('recipientEmail').intent} />
        </FormGroup>
      </div>
      <FormGroup label="Your name" labelFor="sender-name" {...field('senderName')}>
        <InputGroup id="sender-name" value={value.senderName} maxLength={100} onValueChange={(senderName) => change({ senderName })} intent={field('senderName').intent} />
      </FormGroup>
      <FormGroup label="Your message" labelFor="card-message" intent={field('message').intent} helperText={errors.message ?? `${length} / ${MAX_MESSAGE}`}>
        {/* Blueprint's text area as its classes: its component measures the page (a forced layout) as it mounts. */}
        <textarea
          id="card-message"
          className={[Classes.INPUT, Classes.TEXT_AREA, Classes.FILL, Classes.intentClass(field('message').intent)].filter(Boolean).join(' ')}
          rows={5}
          value={value.message}
          maxLength={MAX_MESSAGE}
          onChange={(event) => change({ message: event.currentTarget.value })}
          aria-describedby="card-message-count"
        />
      </FormGroup>
      <FormGroup label="Delivery" {...field('deliveryDate')}>
        {/* A name of its own: Blueprint's default counts the groups a process has drawn, so the server's page (drawn once, kept) and the browser would disagree. */}
        <RadioGroup
          inline
          name="card-delivery"
          selectedValue={value.deliveryDate === null ? 'now' : 'later'}
          onChange={(event) => change({ deliveryDate: event.currentTarget.value === 'now' ? null : (value.deliveryDate ?? tomorrow) })}
        >
          <Radio value="now" label="Send now" />
          <Radio value="later" label="On a later day" />
        </RadioGroup>
        {value.deliveryDate !== null && (
          <InputGroup
            type="date"
            aria-label="Delivery date"
            value={value.deliveryDate}
            min={tomorrow}
            max={latestDeliveryDay(localDay(today))}
            onValueChange={(deliveryDate) => change({ deliveryDate })}
            intent={field('deliveryDate').intent}
          />
        )}
      </FormGroup>
      <GroupCardFields value={value} onChange={change} errors={errors} />
      <Button type="submit" intent="primary" size="large" icon="shopping-cart" text={submitText} />
    </form>
  );
}
