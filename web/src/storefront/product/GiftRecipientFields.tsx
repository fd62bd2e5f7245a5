import { FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { isEmail, isSingleLine, MAX_MESSAGE_LENGTH, MAX_PERSON_NAME } from '@rules';
import { useIntl } from 'react-intl';
import { pageIntl } from '../../i18n/page-intl';
import { oneLine, tooLong } from './personalisation-rules';

/** Whom a present (a gift card, a gift membership) goes to, who gives it, and a message. */
export interface GiftRecipient {
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  message: string;
}

export type GiftRecipientErrors = Partial<Record<keyof GiftRecipient, string>>;

/** The fields' problems (the rules are the server's: one-line names, an address, a message of a card's length). */
export function giftRecipientErrors(gift: GiftRecipient): GiftRecipientErrors {
  const name = (value: string, missing: string) => (!value.trim() ? missing : value.trim().length > MAX_PERSON_NAME ? tooLong(MAX_PERSON_NAME) : !isSingleLine(value.trim()) ? oneLine() : undefined);
  const errors: GiftRecipientErrors = {
    recipientName: name(gift.recipientName, pageIntl().formatMessage({ id: 'product.error.recipientName', defaultMessage: "Enter the recipient's name." })),
    recipientEmail: !isEmail(gift.recipientEmail) ? pageIntl().formatMessage({ id: 'product.error.recipientEmail', defaultMessage: "Enter the recipient's e-mail address." }) : undefined,
    senderName: name(gift.senderName, pageIntl().formatMessage({ id: 'product.error.senderName', defaultMessage: 'Enter your name.' })),
    message: gift.message.length > MAX_MESSAGE_LENGTH ? tooLong(MAX_MESSAGE_LENGTH) : undefined,
  };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as GiftRecipientErrors;
}

/** The fields trimmed as the shop keeps them. */
export const trimmedRecipient = (gift: GiftRecipient): GiftRecipient => ({
  recipientName: gift.recipientName.trim(),
  recipientEmail: gift.recipientEmail.trim(),
  senderName: gift.senderName.trim(),
  message: gift.message.trim(),
});

/** The recipient's name and address (with what is e-mailed there), the giver's name and the message; ids are `${idPrefix}-${field}`. */
export function GiftRecipientFields({ idPrefix, value, errors, onChange, emailHelp }: { idPrefix: string; value: GiftRecipient; errors: GiftRecipientErrors; onChange: (patch: Partial<GiftRecipient>) => void; emailHelp: string }) {
  const intl = useIntl();
  const intent = (key: keyof GiftRecipient) => (errors[key] ? ('danger' as const) : ('none' as const));
  const field = (key: keyof GiftRecipient) => ({
    intent: intent(key),
    helperText: errors[key],
  });
  return (
    <>
      <FormGroup label={intl.formatMessage({ id: 'product.form.recipientName', defaultMessage: "Recipient's name" })} labelFor={`${idPrefix}-recipientName`} {...field('recipientName')}>
        <InputGroup id={`${idPrefix}-recipientName`} value={value.recipientName} intent={intent('recipientName')} maxLength={MAX_PERSON_NAME} onValueChange={(recipientName) => onChange({ recipientName })} />
      </FormGroup>
      <FormGroup label={intl.formatMessage({ id: 'product.form.recipientEmail', defaultMessage: "Recipient's e-mail" })} labelFor={`${idPrefix}-recipientEmail`} helperText={errors.recipientEmail ?? emailHelp} intent={intent('recipientEmail')}>
        <InputGroup id={`${idPrefix}-recipientEmail`} type="email" value={value.recipientEmail} intent={intent('recipientEmail')} onValueChange={(recipientEmail) => onChange({ recipientEmail })} />
      </FormGroup>
      <FormGroup label={intl.formatMessage({ id: 'product.form.senderName', defaultMessage: 'Your name' })} labelFor={`${idPrefix}-senderName`} {...field('senderName')}>
        <InputGroup id={`${idPrefix}-senderName`} value={value.senderName} intent={intent('senderName')} maxLength={MAX_PERSON_NAME} onValueChange={(senderName) => onChange({ senderName })} />
      </FormGroup>
      <FormGroup label={intl.formatMessage({ id: 'product.gift.message', defaultMessage: 'Message' })} labelInfo={intl.formatMessage({ id: 'product.gift.optional', defaultMessage: '(optional)' })} labelFor={`${idPrefix}-message`} {...field('message')}>
        <TextArea id={`${idPrefix}-message`} fill rows={3} value={value.message} intent={intent('message')} onChange={(event) => onChange({ message: event.target.value })} />
      </FormGroup>
    </>
  );
}
