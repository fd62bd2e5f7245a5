import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button, Callout, Card } from '@blueprintjs/core';
import { pageLocale } from '../../i18n/page-intl';
import '../common/storefront.css';
import './contacts.css';

type State = { kind: 'asking' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/**
 * /reminders/stop?token=…: where an occasion reminder's "Turn off this reminder" leads. A button,
 * not the visit itself, turns it off (mail scanners open links); no sign-in is needed.
 */
export default function StopReminderPage() {
  const intl = useIntl();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'asking' });

  const stop = async () => {
    setState({ kind: 'busy' });
    try {
      // The shop answers a refusal in the page's language.
      const res = await fetch(`/api/reminders/stop?token=${encodeURIComponent(token)}`, { method: 'POST', headers: { 'Accept-Language': pageLocale() } });
      const body = (await res.json().catch(() => ({}))) as { message?: string; contact_name?: string; occasion?: string };
      const stopped = body.contact_name !== undefined && body.occasion !== undefined ? intl.formatMessage({ id: 'contacts.stop.doneFor', defaultMessage: "You will get no more reminders of {name}'s {occasion}." }, { name: body.contact_name, occasion: body.occasion }) : body.message;
      setState(
        res.ok
          ? { kind: 'done', message: stopped ?? intl.formatMessage({ id: 'contacts.stop.done', defaultMessage: 'The reminder is off.' }) }
          : { kind: 'failed', message: body.message ?? intl.formatMessage({ id: 'contacts.stop.failed', defaultMessage: 'The reminder could not be turned off.' }) },
      );
    } catch {
      setState({ kind: 'failed', message: intl.formatMessage({ id: 'contacts.stop.unreachable', defaultMessage: 'The shop could not be reached. Please try again.' }) });
    }
  };

  return (
    <div className="store-page stop-reminder-page">
      <h1>
        <FormattedMessage id="contacts.stop.title" defaultMessage="Occasion reminder" />
      </h1>
      <Card>
        {state.kind === 'done' ? (
          <Callout intent="success" icon="tick-circle" title={intl.formatMessage({ id: 'contacts.stop.off', defaultMessage: 'Reminder turned off' })}>
            {state.message}
          </Callout>
        ) : (
          <>
            <p>
              <FormattedMessage id="contacts.stop.text" defaultMessage="Stop e-mailing me this reminder. Other occasions in your address book keep theirs, and you can turn it on again there." />
            </p>
            {state.kind === 'failed' && (
              <Callout intent="danger" role="alert">
                {state.message}
              </Callout>
            )}
            <Button intent="primary" icon="notifications-snooze" text={intl.formatMessage({ id: 'contacts.stop.button', defaultMessage: 'Turn off this reminder' })} loading={state.kind === 'busy'} disabled={!token} onClick={() => void stop()} />
          </>
        )}
        <p className="muted">
          <Link to="/account/contacts">
            <FormattedMessage id="contacts.stop.addressBook" defaultMessage="Your address book" />
          </Link>{' '}
          ·{' '}
          <Link to="/shop">
            <FormattedMessage id="contacts.stop.findCard" defaultMessage="Find a card" />
          </Link>
        </p>
      </Card>
    </div>
  );
}
