import type { ReactNode } from 'react';
import { Card, FormGroup, H4, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { DELIVERY_HOURS, MAX_ANNOUNCEMENT_TEXT, MAX_SENDER_NAME, MAX_SHOP_NAME } from '@rules';
import { LogoField } from './LogoField';
import { timeZones, type FieldErrors, type SettingsDraft, type SettingsField } from './settings-form';

export interface SettingsFieldsProps {
  draft: SettingsDraft;
  errors: FieldErrors;
  disabled: boolean;
  onChange: (patch: Partial<SettingsDraft>) => void;
}

/** One labelled field: its error in place of its help, in the danger colour. */
function Field({ id, label, help, error, children }: { id: string; label: string; help: string; error?: string; children: ReactNode }) {
  return (
    <FormGroup label={label} labelFor={id} intent={error ? 'danger' : 'none'} helperText={error ?? help}>
      {children}
    </FormGroup>
  );
}

/** The settings' cards: the shop, its e-mail, its cards' delivery, its announcement bar (the switch is the screen's). */
export function SettingsFields({ draft, errors, disabled, onChange }: SettingsFieldsProps) {
  const text = (field: keyof SettingsDraft) => (event: React.ChangeEvent<HTMLInputElement>) => onChange({ [field]: event.currentTarget.value });
  const intent = (field: SettingsField) => (errors[field] ? 'danger' : 'none');
  return (
    <>
      <Card className="settings-card" elevation={1}>
        <H4>The shop</H4>
        <Field id="settings-shop-name" label="Shop name" help="Shown in the header, page titles, e-mails and search results." error={errors.shopName}>
          <InputGroup id="settings-shop-name" value={draft.shopName} maxLength={MAX_SHOP_NAME + 20} disabled={disabled} intent={intent('shopName')} onChange={text('shopName')} />
        </Field>
        <LogoField value={draft.logo} error={errors.logoId} onChange={(logo) => onChange({ logo })} />
      </Card>

      <Card className="settings-card" elevation={1}>
        <H4>E-mail</H4>
        <Field id="settings-support-email" label="Support e-mail" help="Where shoppers write to; the e-mails' footer gives it. Leave empty for none." error={errors.supportEmail}>
          <InputGroup id="settings-support-email" type="email" value={draft.supportEmail} disabled={disabled} intent={intent('supportEmail')} onChange={text('supportEmail')} />
        </Field>
        <Field id="settings-sender-name" label="E-mail sender name" help="The name the shop's e-mails come from. Empty: the shop's name." error={errors.senderName}>
          <InputGroup id="settings-sender-name" value={draft.senderName} maxLength={MAX_SENDER_NAME + 20} disabled={disabled} intent={intent('senderName')} onChange={text('senderName')} />
        </Field>
      </Card>

      <Card className="settings-card" elevation={1}>
        <H4>Delivery</H4>
        <Field id="settings-delivery-hour" label="Default delivery hour" help="The hour a card is sent on its day unless the shopper picks another." error={errors.defaultDeliveryHour}>
          <HTMLSelect
            id="settings-delivery-hour"
            value={draft.defaultDeliveryHour}
            disabled={disabled}
            onChange={(event) => onChange({ defaultDeliveryHour: Number(event.currentTarget.value) })}
            options={DELIVERY_HOURS.map((hour, index) => ({ value: index, label: hour }))}
          />
        </Field>
        <Field id="settings-time-zone" label="Time zone" help="The shop's own zone: e-mails tell times in it when they have no other." error={errors.timeZone}>
          <HTMLSelect id="settings-time-zone" value={draft.timeZone} disabled={disabled} onChange={(event) => onChange({ timeZone: event.currentTarget.value })} options={timeZones(draft.timeZone)} />
        </Field>
      </Card>

      <Card className="settings-card" elevation={1}>
        <H4>Announcement bar</H4>
        <Switch
          large
          label="Show the announcement bar"
          checked={draft.announcementEnabled}
          disabled={disabled}
          onChange={(event) => onChange({ announcementEnabled: event.currentTarget.checked })}
        />
        <Field
          id="settings-announcement-text"
          label="Announcement text"
          help={`Shown above the header on every page of the shop (${draft.announcementText.length}/${MAX_ANNOUNCEMENT_TEXT}).`}
          error={errors['announcement.text']}
        >
          <InputGroup id="settings-announcement-text" value={draft.announcementText} disabled={disabled} intent={intent('announcement.text')} onChange={text('announcementText')} />
        </Field>
        <Field id="settings-announcement-link" label="Announcement link" help="Optional: a page of the shop such as /shop, or an https:// address." error={errors['announcement.link']}>
          <InputGroup id="settings-announcement-link" value={draft.announcementLink} placeholder="/shop" disabled={disabled} intent={intent('announcement.link')} onChange={text('announcementLink')} />
        </Field>
      </Card>
    </>
  );
}
