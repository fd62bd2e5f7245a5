import { FormGroup, InputGroup, Switch } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CardPersonalisation } from '../cart/cart-lines';
import { localDay } from '../product/personalisation-rules';
import { defaultCollectUntil, defaultGroupCardDay, deliveryStart, fromLocalInput, toLocalInput, type GroupCardErrors } from './group-card-rules';

/**
 * "Make it a group card" on the product page's form: others sign the card through a link until
 * "Collect signatures until", which is before its delivery day (a group card is always sent on a
 * later day). The recipient and the day are the form's own fields.
 */
export function GroupCardFields({ value, onChange, errors }: { value: CardPersonalisation; onChange: (patch: Partial<CardPersonalisation>) => void; errors: GroupCardErrors }) {
  const intl = useIntl();
  const on = Boolean(value.groupCard);
  const toggle = (checked: boolean) => {
    if (!checked) return onChange({ groupCard: null });
    const now = new Date();
    const deliveryDate = value.deliveryDate ?? defaultGroupCardDay(localDay(now));
    onChange({ deliveryDate, groupCard: { collectUntil: defaultCollectUntil(deliveryDate, now) } });
  };
  const start = deliveryStart(value.deliveryDate, value.deliveryTime);
  return (
    <div className="group-card-fields">
      <Switch
        checked={on}
        onChange={(event) => toggle(event.currentTarget.checked)}
        labelElement={
          <strong>
            <FormattedMessage id="groupCard.fields.toggle" defaultMessage="Make it a group card" />
          </strong>
        }
        aria-describedby="group-card-about"
      />
      <p id="group-card-about" className="muted group-card-about">
        <FormattedMessage id="groupCard.fields.about" defaultMessage="Friends and colleagues sign it through a link you share; every signature is inside the card when it arrives." />
      </p>
      {on && (
        <FormGroup
          label={intl.formatMessage({ id: 'groupCard.fields.collectUntil', defaultMessage: 'Collect signatures until' })}
          labelFor="collect-until"
          intent={errors.collectUntil ? 'danger' : 'none'}
          helperText={errors.collectUntil ?? intl.formatMessage({ id: 'groupCard.fields.collectUntilHelp', defaultMessage: 'Before the delivery day: signing closes then.' })}
        >
          <InputGroup
            id="collect-until"
            type="datetime-local"
            value={value.groupCard ? toLocalInput(new Date(value.groupCard.collectUntil)) : ''}
            min={toLocalInput(new Date())}
            max={start ? toLocalInput(start) : undefined}
            onValueChange={(text) => {
              const collectUntil = fromLocalInput(text);
              if (collectUntil) onChange({ groupCard: { collectUntil } });
            }}
            intent={errors.collectUntil ? 'danger' : 'none'}
          />
        </FormGroup>
      )}
    </div>
  );
}
