import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Card, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useErrorText } from '../../i18n/input-messages';
import { ChangePasswordDialog } from '../../auth/ChangePasswordDialog';
import { useSignOutEverywhere } from '../../auth/use-logout';
import { snackbar } from '../../common/toaster';
import { MyAccountQuery, UpdateAccountSettingsMutation } from './account-settings-operations';
import { ChangeEmailForm } from './ChangeEmailForm';
import { ConfirmEmailReminder } from './ConfirmEmailReminder';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { DownloadDataButton } from './DownloadDataButton';
import '../common/storefront.css';
import './account-settings.css';

type SettingsDialog = 'password' | 'delete';

/**
 * /account/settings, "Account settings": the address (confirmation, change), the password, the
 * "opened" notices, "Download my data" and "Delete my account". Its dialogs are in the address
 * (`?dialog=password`, `?dialog=delete`), so that they survive a reload.
 */
export default function AccountSettingsPage() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [params, setParams] = useSearchParams();
  const dialog = params.get('dialog') as SettingsDialog | null;
  const open = (which: SettingsDialog | null) => setParams(which ? { dialog: which } : {}, { replace: true });
  const { data, loading, error } = useQuery(MyAccountQuery, { fetchPolicy: 'cache-and-network' });
  const [update, updating] = useMutation(UpdateAccountSettingsMutation);
  const account = data?.myAccount;
  const signOutEverywhere = useSignOutEverywhere();
  const [signingOut, setSigningOut] = useState(false);
  const endAllSessions = async () => {
    setSigningOut(true);
    try {
      await signOutEverywhere();
      void snackbar(intl.formatMessage({ id: 'settings.sessions.done', defaultMessage: 'You are signed out everywhere.' }));
    } catch (failure) {
      setSigningOut(false);
      void snackbar(errorText(failure, intl.formatMessage({ id: 'settings.sessions.failed', defaultMessage: 'You could not be signed out everywhere. Please try again.' })), 'danger');
    }
  };

  const setNotifyOpened = async (notifyOpened: boolean) => {
    try {
      await update({ variables: { input: { notifyOpened } } });
      void snackbar(notifyOpened ? intl.formatMessage({ id: 'settings.notices.on', defaultMessage: 'You will be told when your cards are opened.' }) : intl.formatMessage({ id: 'settings.notices.off', defaultMessage: 'No more "opened" notices.' }));
    } catch (failure) {
      void snackbar(errorText(failure, intl.formatMessage({ id: 'settings.notices.failed', defaultMessage: 'The setting could not be saved.' })), 'danger');
    }
  };

  return (
    <div className="store-page settings-page">
      <h1>
        <FormattedMessage id="settings.title" defaultMessage="Account settings" />
      </h1>
      {error && !account ? (
        <Callout intent="danger" title={intl.formatMessage({ id: 'settings.loadFailed', defaultMessage: 'Your account could not be loaded' })}>
          {errorText(error, intl.formatMessage({ id: 'checkout.failure.tryAgain', defaultMessage: 'Please try again.' }))}
        </Callout>
      ) : loading && !account ? (
        <Spinner className="store-state" />
      ) : account ? (
        <>
          <ConfirmEmailReminder />
          <Card className="settings-section" aria-labelledby="settings-email">
            <h2 id="settings-email">
              <FormattedMessage id="settings.email.title" defaultMessage="E-mail address" />
            </h2>
            <p className="settings-current">
              <span>{account.email}</span>
              {account.emailConfirmed ? (
                <Tag minimal intent="success" icon="tick">
                  <FormattedMessage id="settings.email.confirmed" defaultMessage="Confirmed" />
                </Tag>
              ) : (
                <Tag minimal intent="warning">
                  <FormattedMessage id="settings.email.notConfirmed" defaultMessage="Not confirmed" />
                </Tag>
              )}
            </p>
            {account.pendingEmail && (
              <Callout intent="primary" icon="time" className="settings-callout">
                <FormattedMessage
                  id="settings.email.pending"
                  defaultMessage="Waiting for <b>{pending}</b>: open the link we sent there and it becomes your address. Until then, it stays {email}."
                  values={{ pending: account.pendingEmail, email: account.email, b: (chunks) => <strong>{chunks}</strong> }}
                />
              </Callout>
            )}
            <p className="muted">
              <FormattedMessage id="settings.email.help" defaultMessage="A new address takes effect once you open the link we send to it; we tell your current address when it changes." />
            </p>
            <ChangeEmailForm />
          </Card>

          <Card className="settings-section" aria-labelledby="settings-password">
            <h2 id="settings-password">
              <FormattedMessage id="settings.password.title" defaultMessage="Password" />
            </h2>
            <p className="muted">
              <FormattedMessage id="settings.password.help" defaultMessage="A new password signs you out everywhere else." />
            </p>
            <Button icon="key" text={intl.formatMessage({ id: 'auth.changePassword', defaultMessage: 'Change password' })} onClick={() => open('password')} />
          </Card>

          <Card className="settings-section" aria-labelledby="settings-sessions">
            <h2 id="settings-sessions">
              <FormattedMessage id="settings.sessions.title" defaultMessage="Where you are signed in" />
            </h2>
            <p className="muted">
              <FormattedMessage
                id="settings.sessions.help"
                defaultMessage="Signed in on a shared computer, or on a phone you no longer have? This signs you out on every device and browser, this one too."
              />
            </p>
            <Button icon="log-out" text={intl.formatMessage({ id: 'settings.sessions.signOut', defaultMessage: 'Sign out everywhere' })} loading={signingOut} onClick={() => void endAllSessions()} />
          </Card>

          <Card className="settings-section" aria-labelledby="settings-notices">
            <h2 id="settings-notices">
              <FormattedMessage id="settings.notices.title" defaultMessage="E-mails to you" />
            </h2>
            <Switch
              large
              checked={account.notifyOpened}
              disabled={updating.loading}
              label={intl.formatMessage({ id: 'settings.notices.label', defaultMessage: 'Tell me when my cards are opened' })}
              onChange={(event) => void setNotifyOpened(event.currentTarget.checked)}
            />
            <p className="muted">
              <FormattedMessage
                id="settings.notices.help"
                defaultMessage="When it is off, you get no “opened” e-mails for any order of this account, whatever was ticked at checkout. Receipts, thank-you replies and e-mails about your account still come."
              />
            </p>
          </Card>

          <Card className="settings-section" aria-labelledby="settings-data">
            <h2 id="settings-data">
              <FormattedMessage id="settings.data.title" defaultMessage="Your data" />
            </h2>
            <p className="muted">
              <FormattedMessage id="settings.data.help" defaultMessage="Your account, your orders with their cards and thank-you replies, and your contacts, as one JSON file." />
            </p>
            <DownloadDataButton />
          </Card>

          <Card className="settings-section settings-danger" aria-labelledby="settings-delete">
            <h2 id="settings-delete">
              <FormattedMessage id="settings.delete.title" defaultMessage="Delete my account" />
            </h2>
            <p className="muted">
              <FormattedMessage
                id="settings.delete.help"
                defaultMessage="Removes your account and your address book. Your orders stay in the shop’s books without your name or e-mail address. See <link>My orders</link> first if you want to keep them."
                values={{ link: (chunks) => <Link to="/account">{chunks}</Link> }}
              />
            </p>
            <Button intent="danger" icon="trash" text={intl.formatMessage({ id: 'settings.delete.title', defaultMessage: 'Delete my account' })} onClick={() => open('delete')} />
          </Card>
        </>
      ) : null}
      <ChangePasswordDialog isOpen={dialog === 'password'} onClose={() => open(null)} />
      <DeleteAccountDialog isOpen={dialog === 'delete'} onClose={() => open(null)} />
    </div>
  );
}
