import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Card, Spinner, Switch, Tag } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
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
      void snackbar('You are signed out everywhere.');
    } catch (failure) {
      setSigningOut(false);
      void snackbar(errorMessage(failure, 'You could not be signed out everywhere. Please try again.'), 'danger');
    }
  };

  const setNotifyOpened = async (notifyOpened: boolean) => {
    try {
      await update({ variables: { input: { notifyOpened } } });
      void snackbar(notifyOpened ? 'You will be told when your cards are opened.' : 'No more "opened" notices.');
    } catch (failure) {
      void snackbar(errorMessage(failure, 'The setting could not be saved.'), 'danger');
    }
  };

  return (
    <div className="store-page settings-page">
      <h1>Account settings</h1>
      {error && !account ? (
        <Callout intent="danger" title="Your account could not be loaded">
          {errorMessage(error, 'Please try again.')}
        </Callout>
      ) : loading && !account ? (
        <Spinner className="store-state" />
      ) : account ? (
        <>
          <ConfirmEmailReminder />
          <Card className="settings-section" aria-labelledby="settings-email">
            <h2 id="settings-email">E-mail address</h2>
            <p className="settings-current">
              <span>{account.email}</span>
              {account.emailConfirmed ? (
                <Tag minimal intent="success" icon="tick">
                  Confirmed
                </Tag>
              ) : (
                <Tag minimal intent="warning">
                  Not confirmed
                </Tag>
              )}
            </p>
            {account.pendingEmail && (
              <Callout intent="primary" icon="time" className="settings-callout">
                Waiting for <strong>{account.pendingEmail}</strong>: open the link we sent there and it becomes your address. Until then, it stays {account.email}.
              </Callout>
            )}
            <p className="muted">A new address takes effect once you open the link we send to it; we tell your current address when it changes.</p>
            <ChangeEmailForm />
          </Card>

          <Card className="settings-section" aria-labelledby="settings-password">
            <h2 id="settings-password">Password</h2>
            <p className="muted">A new password signs you out everywhere else.</p>
            <Button icon="key" text="Change password" onClick={() => open('password')} />
          </Card>

          <Card className="settings-section" aria-labelledby="settings-sessions">
            <h2 id="settings-sessions">Where you are signed in</h2>
            <p className="muted">Signed in on a shared computer, or on a phone you no longer have? This signs you out on every device and browser, this one too.</p>
            <Button icon="log-out" text="Sign out everywhere" loading={signingOut} onClick={() => void endAllSessions()} />
          </Card>

          <Card className="settings-section" aria-labelledby="settings-notices">
            <h2 id="settings-notices">E-mails to you</h2>
            <Switch
              large
              checked={account.notifyOpened}
              disabled={updating.loading}
              label="Tell me when my cards are opened"
              onChange={(event) => void setNotifyOpened(event.currentTarget.checked)}
            />
            <p className="muted">
              When it is off, you get no &ldquo;opened&rdquo; e-mails for any order of this account, whatever was ticked at checkout. Receipts, thank-you replies and e-mails about your account
              still come.
            </p>
          </Card>

          <Card className="settings-section" aria-labelledby="settings-data">
            <h2 id="settings-data">Your data</h2>
            <p className="muted">Your account, your orders with their cards and thank-you replies, and your contacts, as one JSON file.</p>
            <DownloadDataButton />
          </Card>

          <Card className="settings-section settings-danger" aria-labelledby="settings-delete">
            <h2 id="settings-delete">Delete my account</h2>
            <p className="muted">
              Removes your account and your address book. Your orders stay in the shop&rsquo;s books without your name or e-mail address. See <Link to="/account">My orders</Link> first if you want to
              keep them.
            </p>
            <Button intent="danger" icon="trash" text="Delete my account" onClick={() => open('delete')} />
          </Card>
        </>
      ) : null}
      <ChangePasswordDialog isOpen={dialog === 'password'} onClose={() => open(null)} />
      <DeleteAccountDialog isOpen={dialog === 'delete'} onClose={() => open(null)} />
    </div>
  );
}
