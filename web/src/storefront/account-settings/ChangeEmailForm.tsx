import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { useIntl } from 'react-intl';
import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { errorField } from '../../apollo/errors';
import { inputMessage, useErrorText } from '../../i18n/input-messages';
import { ChangeEmailMutation, MyAccountQuery } from './account-settings-operations';

/** Change e-mail: the new address and the password; the address changes once the link sent there is opened. */
export function ChangeEmailForm() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ intent: 'success' | 'danger'; text: string } | null>(null);
  const [change, { loading }] = useMutation(ChangeEmailMutation, { refetchQueries: [MyAccountQuery] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFields({});
    setOutcome(null);
    try {
      const { data } = await change({ variables: { input: { newEmail, password } } });
      setOutcome({ intent: 'success', text: data?.changeEmail.message ? inputMessage(intl, data.changeEmail.message) : intl.formatMessage({ id: 'settings.email.sent', defaultMessage: 'We have sent a link to your new address.' }) });
      setNewEmail('');
      setPassword('');
    } catch (e) {
      const field = errorField(e);
      const text = errorText(e, intl.formatMessage({ id: 'settings.email.failed', defaultMessage: 'The address could not be changed.' }));
      if (field === 'newEmail' || field === 'password') setFields({ [field]: text });
      else setOutcome({ intent: 'danger', text });
    }
  };

  return (
    <form onSubmit={submit} noValidate className="settings-form" aria-label={intl.formatMessage({ id: 'settings.email.change', defaultMessage: 'Change e-mail' })}>
      {outcome && (
        <Callout intent={outcome.intent} icon={outcome.intent === 'success' ? 'envelope' : 'error'} role={outcome.intent === 'success' ? 'status' : 'alert'} className="settings-callout">
          {outcome.text}
        </Callout>
      )}
      <div className="settings-fields">
        <FormGroup label={intl.formatMessage({ id: 'settings.email.new', defaultMessage: 'New e-mail address' })} labelFor="settings-new-email" intent={fields.newEmail ? 'danger' : 'none'} helperText={fields.newEmail}>
          <InputGroup id="settings-new-email" type="email" autoComplete="email" value={newEmail} onValueChange={setNewEmail} required intent={fields.newEmail ? 'danger' : 'none'} />
        </FormGroup>
        <FormGroup
          label={intl.formatMessage({ id: 'auth.password', defaultMessage: 'Password' })}
          labelFor="settings-email-password"
          intent={fields.password ? 'danger' : 'none'}
          helperText={fields.password ?? intl.formatMessage({ id: 'settings.email.password', defaultMessage: 'Your current password.' })}
        >
          <InputGroup id="settings-email-password" type="password" autoComplete="current-password" value={password} onValueChange={setPassword} required intent={fields.password ? 'danger' : 'none'} />
        </FormGroup>
      </div>
      <Button type="submit" text={intl.formatMessage({ id: 'settings.email.change', defaultMessage: 'Change e-mail' })} loading={loading} />
    </form>
  );
}
