import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup } from '@blueprintjs/core';
import { useErrorText } from '../../i18n/input-messages';
import { snackbar } from '../../common/toaster';
import { classifyDeliveryDay, DELIVERY_HOURS, hourText, latestDeliveryDay } from '@rules';
import { useShop } from '../../settings/shop-store';
import { localDay, localTime } from '../product/personalisation-rules';
import { ChangeCardDateMutation } from './account-operations';

export interface ChangingCard {
  id: number;
  recipientName: string;
  deliverAt: string | null;
  /** A group card's signatures so far (sending it now closes signing); null for a card of one sender. */
  signatures?: number | null;
}

/** What sending a group card now means for its signers. */
export function closesSigningText(intl: IntlShape, signatures: number): string {
  return intl.formatMessage({ id: 'account.changeDate.closesSigning', defaultMessage: 'Signing closes now; {count, plural, one {# person has} other {# people have}} signed.' }, { count: signatures });
}

/** The hour a scheduled card is due at, as the dialog offers it (a whole hour; the shop's default hour when it is not one). */
function hourOf(iso: string | null, fallback: string): string {
  if (!iso) return fallback;
  const time = localTime(new Date(iso));
  return DELIVERY_HOURS.includes(time) ? time : fallback;
}

/** "Change date": now, or another day (today up to a year ahead) and hour, for a card that has not gone out. */
export function ChangeDateDialog({ card, onClose }: { card: ChangingCard | null; onClose: () => void }) {
  const intl = useIntl();
  const errorText = useErrorText();
  const today = localDay(new Date());
  const max = latestDeliveryDay(today);
  const [when, setWhen] = useState<'now' | 'later'>('later');
  const [day, setDay] = useState('');
  const [hour, setHour] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [change, { loading }] = useMutation(ChangeCardDateMutation);
  const scheduled = card?.deliverAt ? localDay(new Date(card.deliverAt)) : null;
  const value = day || (scheduled && scheduled >= today ? scheduled : today);
  const defaultHour = hourText(useShop().defaultDeliveryHour);
  const time = hour ?? hourOf(card?.deliverAt ?? null, defaultHour);

  const close = () => {
    setWhen('later');
    setDay('');
    setHour(null);
    setError(null);
    onClose();
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!card) return;
    if (when === 'later') {
      const kind = classifyDeliveryDay(value, today);
      if (kind !== 'later' && kind !== 'today') {
        setError(intl.formatMessage({ id: 'account.changeDate.dayRange', defaultMessage: 'Choose a day from today up to a year ahead.' }));
        return;
      }
      if (kind === 'today' && time <= localTime(new Date())) {
        setError(intl.formatMessage({ id: 'account.changeDate.laterHour', defaultMessage: 'Choose a later hour today, or send it now.' }));
        return;
      }
    }
    try {
      await change({ variables: when === 'now' ? { itemId: card.id, deliveryDate: null } : { itemId: card.id, deliveryDate: value, deliveryTime: time } });
      const at = intl.formatDate(new Date(`${value}T${time}:00`), { dateStyle: 'long', timeStyle: 'short' });
      void snackbar(
        when === 'now'
          ? intl.formatMessage({ id: 'account.changeDate.sentNow', defaultMessage: 'The card for {name} is on its way now' }, { name: card.recipientName })
          : intl.formatMessage({ id: 'account.changeDate.moved', defaultMessage: 'The card for {name} now goes out on {date}' }, { name: card.recipientName, date: at }),
      );
      close();
    } catch (failure) {
      setError(errorText(failure, intl.formatMessage({ id: 'account.changeDate.failed', defaultMessage: 'The date could not be changed.' })));
    }
  };

  return (
    <Dialog isOpen={card !== null} onClose={close} title={intl.formatMessage({ id: 'account.changeDate', defaultMessage: 'Change date' })} icon="calendar" className="account-date-dialog">
      <form onSubmit={save} noValidate>
        <DialogBody>
          <FormGroup
            label={
              card?.recipientName
                ? intl.formatMessage({ id: 'account.changeDate.question', defaultMessage: 'When should {name} get the card?' }, { name: card.recipientName })
                : intl.formatMessage({ id: 'account.changeDate.questionAnyone', defaultMessage: 'When should the recipient get the card?' })
            }
            helperText={
              error ??
              (when === 'now'
                ? intl.formatMessage({ id: 'account.changeDate.nowHelp', defaultMessage: 'It goes out at once.' })
                : intl.formatMessage({ id: 'account.changeDate.laterHelp', defaultMessage: 'It goes out at that hour, your time.' }))
            }
            intent={error ? 'danger' : 'none'}
          >
            <RadioGroup inline name="change-date-when" selectedValue={when} onChange={(event) => setWhen(event.currentTarget.value === 'now' ? 'now' : 'later')}>
              <Radio value="now" label={intl.formatMessage({ id: 'account.changeDate.now', defaultMessage: 'Now' })} />
              <Radio value="later" label={intl.formatMessage({ id: 'account.changeDate.onDay', defaultMessage: 'On a day' })} />
            </RadioGroup>
            {when === 'now' && card?.signatures != null && (
              <Callout intent="warning" icon="warning-sign" className="account-date-warning" role="alert">
                <FormattedMessage
                  id="account.changeDate.signingWarning"
                  defaultMessage="{closes} No one can sign after it goes."
                  values={{ closes: closesSigningText(intl, card.signatures) }}
                />
              </Callout>
            )}
            {when === 'later' && (
              <div className="account-date-when">
                <InputGroup id="change-date" type="date" aria-label={intl.formatMessage({ id: 'account.changeDate.date', defaultMessage: 'Delivery date' })} value={value} min={today} max={max} onValueChange={(next) => setDay(next)} intent={error ? 'danger' : 'none'} />
                <HTMLSelect aria-label={intl.formatMessage({ id: 'account.changeDate.time', defaultMessage: 'Delivery time' })} value={time} onChange={(event) => setHour(event.currentTarget.value)} options={DELIVERY_HOURS.map((h) => ({ value: h, label: h }))} />
              </div>
            )}
          </FormGroup>
          {error?.includes('already been sent') && (
            <Callout intent="warning">
              <FormattedMessage id="account.changeDate.gone" defaultMessage="This card has already gone out." />
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={intl.formatMessage({ id: 'account.cancel', defaultMessage: 'Cancel' })} onClick={close} />
              <Button type="submit" intent="primary" text={intl.formatMessage({ id: 'account.save', defaultMessage: 'Save' })} loading={loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
