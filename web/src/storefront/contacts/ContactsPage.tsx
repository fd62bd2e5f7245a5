import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Card, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { useErrorText } from '../../i18n/input-messages';
import { authStore } from '../../auth/auth-store';
import type { ContactsPage_ContactFragment as ContactNode } from '../../apollo/generated/graphql';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { snackbar } from '../../common/toaster';
import { useDebounced } from '../common/use-debounced';
import { browserTimeZone } from '../product/personalisation-rules';
import { ContactDialog } from './ContactDialog';
import { ImportDialog } from './ImportDialog';
import { useUrlParams } from '../../common/url-params';
import { occasionSummary } from './contact-format';
import { updateContactLists } from './contacts-cache';
import { ContactsQuery, DeleteContactMutation, RememberTimeZoneMutation } from './contacts-operations';
import '../common/storefront.css';
import './contacts.css';
import { EmptyState } from '../../common/EmptyState';

const PAGE = 50;

/**
 * /account/contacts, "Address book": the signed-in shopper's contacts, searched and paged by the
 * server (an account holds up to 2,000), with their occasions and reminders; add, edit, delete,
 * import and export. The dialog open is in the address (`?contact=new`, `?contact={id}`, `?import`).
 */
export default function ContactsPage() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [params, changeParams] = useUrlParams();
  const [typed, setTyped] = useState(params.get('q') ?? '');
  const search = useDebounced(typed.trim(), 250);
  const { data, loading, error, fetchMore } = useQuery(ContactsQuery, { variables: { search: search || null, first: PAGE }, fetchPolicy: 'cache-and-network' });
  const [remove] = useMutation(DeleteContactMutation);
  const [rememberZone] = useMutation(RememberTimeZoneMutation);
  const [deleting, setDeleting] = useState<ContactNode | null>(null);
  const contacts = data?.contacts;
  const edges = contacts?.edges ?? [];

  // The reminders come at 09:00 where the shopper is: the browser says where that is.
  useEffect(() => {
    void rememberZone({ variables: { timeZone: browserTimeZone() } }).catch(() => undefined);
  }, [rememberZone]);

  const open = params.get('contact');
  const editing = open && open !== 'new' ? (edges.find((edge) => String(edge.node.id) === open)?.node ?? null) : null;
  const setParam = (name: string, value: string | null) => changeParams({ [name]: value });

  const confirmDelete = async () => {
    const contact = deleting;
    setDeleting(null);
    if (!contact) return;
    try {
      await remove({ variables: { id: contact.id }, update: (cache) => updateContactLists(cache, { deletedId: contact.id }) });
      void snackbar(intl.formatMessage({ id: 'contacts.deleted', defaultMessage: '{name} was deleted' }, { name: contact.name }));
    } catch (failure) {
      void snackbar(errorText(failure, intl.formatMessage({ id: 'contacts.deleteFailed', defaultMessage: 'The contact could not be deleted.' })), 'danger');
    }
  };

  return (
    <div className="store-page contacts-page">
      <header className="contacts-head">
        <div>
          <h1>
            <FormattedMessage id="contacts.title" defaultMessage="Address book" />
          </h1>
          <p className="muted">
            {contacts
              ? search
                ? intl.formatMessage({ id: 'contacts.countFound', defaultMessage: '{count, plural, one {# contact} other {# contacts}} found' }, { count: contacts.totalCount })
                : intl.formatMessage({ id: 'contacts.count', defaultMessage: '{count, plural, one {# contact} other {# contacts}}' }, { count: contacts.totalCount })
              : ' '}{' '}
            · <FormattedMessage id="contacts.remindersAt" defaultMessage="reminders come at 09:00 your time" /> ·{' '}
            <Link to="/account">
              <FormattedMessage id="account.title" defaultMessage="My orders" />
            </Link>
          </p>
        </div>
        <div className="contacts-actions">
          <Button intent="primary" icon="add" text={intl.formatMessage({ id: 'contacts.add', defaultMessage: 'Add contact' })} onClick={() => setParam('contact', 'new')} />
          <Button icon="import" text={intl.formatMessage({ id: 'contacts.import', defaultMessage: 'Import CSV' })} onClick={() => setParam('import', '1')} />
          <ExportButton />
        </div>
      </header>
      <InputGroup
        type="search"
        leftIcon="search"
        placeholder={intl.formatMessage({ id: 'contacts.search.placeholder', defaultMessage: 'Search by name or e-mail' })}
        aria-label={intl.formatMessage({ id: 'contacts.search.label', defaultMessage: 'Search contacts' })}
        value={typed}
        onValueChange={setTyped}
        className="contacts-search"
      />
      {error && !contacts ? (
        <Callout intent="danger" title={intl.formatMessage({ id: 'contacts.loadFailed', defaultMessage: 'Your address book could not be loaded' })}>
          {errorText(error, intl.formatMessage({ id: 'checkout.failure.tryAgain', defaultMessage: 'Please try again.' }))}
        </Callout>
      ) : loading && !contacts ? (
        <Spinner className="store-state" />
      ) : !edges.length ? (
        search ? (
          <EmptyState
            className="store-state"
            icon="search"
            title={intl.formatMessage({ id: 'contacts.noMatch.title', defaultMessage: 'No contact matches' })}
            description={intl.formatMessage({ id: 'contacts.noMatch.description', defaultMessage: 'Nobody in your address book matches “{search}”.' }, { search })}
          />
        ) : (
          <EmptyState
            className="store-state"
            icon="book"
            title={intl.formatMessage({ id: 'contacts.empty.title', defaultMessage: 'Your address book is empty' })}
            description={intl.formatMessage({ id: 'contacts.empty.description', defaultMessage: 'Add the people you send cards to, or import them from a CSV file; birthdays come with reminders.' })}
            action={<Button intent="primary" icon="add" text={intl.formatMessage({ id: 'contacts.add', defaultMessage: 'Add contact' })} onClick={() => setParam('contact', 'new')} />}
          />
        )
      ) : (
        <>
          <ul className="contacts-list" aria-label={intl.formatMessage({ id: 'contacts.list', defaultMessage: 'Contacts' })}>
            {edges.map(({ node }) => (
              <li key={node.id}>
                <Card className="contact-card" aria-label={node.name}>
                  <div className="contact-card-text">
                    <strong className="contact-name">{node.name}</strong>
                    <span className="muted contact-email">{node.email}</span>
                    {node.occasions.length > 0 && (
                      <div className="contact-card-occasions">
                        {node.occasions.map((o) => (
                          <Tag key={o.id} minimal round icon={o.remind ? 'notifications' : 'notifications-snooze'} intent={o.remind ? 'primary' : 'none'}>
                            {occasionSummary(intl, o)}
                          </Tag>
                        ))}
                      </div>
                    )}
                  </div>
                  <div className="contact-card-actions">
                    <Button variant="minimal" icon="edit" text={intl.formatMessage({ id: 'contacts.edit', defaultMessage: 'Edit' })} aria-label={intl.formatMessage({ id: 'contacts.editLabel', defaultMessage: 'Edit {name}' }, { name: node.name })} onClick={() => setParam('contact', String(node.id))} />
                    <Button variant="minimal" icon="trash" aria-label={intl.formatMessage({ id: 'contacts.deleteLabel', defaultMessage: 'Delete {name}' }, { name: node.name })} onClick={() => setDeleting(node)} />
                  </div>
                </Card>
              </li>
            ))}
          </ul>
          {contacts?.pageInfo.hasNextPage && <Button className="contacts-more" text={intl.formatMessage({ id: 'contacts.more', defaultMessage: 'Show more' })} loading={loading} onClick={() => void fetchMore({ variables: { after: contacts.pageInfo.endCursor } })} />}
        </>
      )}
      <ContactDialog isOpen={open === 'new' || editing !== null} contact={editing} onClose={() => setParam('contact', null)} />
      <ImportDialog isOpen={params.has('import')} onClose={() => setParam('import', null)} />
      <ConfirmAlert
        isOpen={deleting !== null}
        message={intl.formatMessage({ id: 'contacts.deleteConfirm', defaultMessage: 'Delete {name} and their occasions from your address book?' }, { name: deleting?.name ?? '' })}
        confirmText={intl.formatMessage({ id: 'contacts.delete', defaultMessage: 'Delete' })}
        cancelText={intl.formatMessage({ id: 'account.cancel', defaultMessage: 'Cancel' })}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

/** "Export CSV": the whole address book as a file the import reads back. */
function ExportButton() {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { token } = authStore.getState();
      const res = await fetch('/api/account/contacts.csv', { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new Error(`The export answered ${res.status}`);
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'address-book.csv';
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      console.error('Error exporting the address book:', error);
      void snackbar(intl.formatMessage({ id: 'contacts.exportFailed', defaultMessage: 'Error exporting the address book: The address book could not be exported' }), 'danger');
    } finally {
      setBusy(false);
    }
  };
  return <Button icon="export" text={intl.formatMessage({ id: 'contacts.export', defaultMessage: 'Export CSV' })} loading={busy} onClick={() => void download()} />;
}
