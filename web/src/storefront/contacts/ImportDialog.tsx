import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, HTMLTable } from '@blueprintjs/core';
import { CONTACTS_CSV_HEADER, MAX_CONTACTS, MAX_CONTACTS_CSV_BYTES } from '@rules';
import { useErrorText } from '../../i18n/input-messages';
import { snackbar } from '../../common/toaster';
import { ImportContactsMutation } from './contacts-operations';

type Outcome = { kind: 'refused'; message: string } | { kind: 'errors'; errors: { line: number; message: string }[] };

const kB = (intl: IntlShape, bytes: number) => intl.formatMessage({ id: 'contacts.import.kB', defaultMessage: '{size, number} kB' }, { size: Math.ceil(bytes / 1024) });

/**
 * "Import CSV": a file with the header name,email,birthday (a birthday YYYY-MM-DD or MM-DD). All of
 * it is imported, or nothing: every line that cannot be is listed with its number.
 */
export function ImportDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const intl = useIntl();
  const errorText = useErrorText();
  const [file, setFile] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // After an import the list is read again: a whole file changes too much to patch in place.
  const [run, { loading }] = useMutation(ImportContactsMutation, { refetchQueries: ['Contacts'] });

  const close = () => {
    setFile(null);
    setOutcome(null);
    onClose();
  };

  const choose = (chosen: File | null) => {
    setOutcome(null);
    setFile(chosen);
    // Refused here, before anything is sent: a file this large is no address book.
    if (chosen && chosen.size > MAX_CONTACTS_CSV_BYTES) {
      setOutcome({
        kind: 'refused',
        message: intl.formatMessage(
          { id: 'contacts.import.tooLarge', defaultMessage: 'This file is {size}: an address book file can be at most {max} ({count, number} contacts fit well within it). Nothing was imported.' },
          { size: kB(intl, chosen.size), max: kB(intl, MAX_CONTACTS_CSV_BYTES), count: MAX_CONTACTS },
        ),
      });
    }
  };

  const submit = async () => {
    if (!file || outcome?.kind === 'refused') return;
    try {
      const { data } = await run({ variables: { csv: await file.text() } });
      const result = data!.importContacts;
      if (result.errors.length) {
        setOutcome({ kind: 'errors', errors: result.errors });
        return;
      }
      void snackbar(intl.formatMessage({ id: 'contacts.import.done', defaultMessage: '{count, plural, one {# contact} other {# contacts}} imported' }, { count: result.imported }));
      close();
    } catch (error) {
      setOutcome({ kind: 'refused', message: errorText(error, intl.formatMessage({ id: 'contacts.import.failed', defaultMessage: 'The file could not be imported.' })) });
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} title={intl.formatMessage({ id: 'contacts.import', defaultMessage: 'Import CSV' })} icon="import" className="contacts-import-dialog">
      <DialogBody>
        <p>
          <FormattedMessage
            id="contacts.import.help"
            defaultMessage="A CSV file whose first line is <code>{header}</code>, then one contact a line; a birthday is written <code>1990-12-24</code> or <code>12-24</code> (or left empty). An address already in your book updates that contact."
            values={{ header: CONTACTS_CSV_HEADER.join(','), code: (chunks) => <code>{chunks}</code> }}
          />
        </p>
        <FileInput
          fill
          text={file?.name ?? intl.formatMessage({ id: 'contacts.import.choose', defaultMessage: 'Choose a file…' })}
          buttonText={intl.formatMessage({ id: 'contacts.import.browse', defaultMessage: 'Browse' })}
          inputProps={{ accept: '.csv,text/csv,text/plain', 'aria-label': intl.formatMessage({ id: 'contacts.import.file', defaultMessage: 'CSV file' }) }}
          onInputChange={(event) => choose(event.currentTarget.files?.[0] ?? null)}
        />
        {outcome?.kind === 'refused' && (
          <Callout intent="danger" className="contacts-import-outcome" role="alert">
            {outcome.message}
          </Callout>
        )}
        {outcome?.kind === 'errors' && (
          <Callout intent="danger" className="contacts-import-outcome" title={intl.formatMessage({ id: 'contacts.import.nothing', defaultMessage: 'Nothing was imported' })} role="alert">
            <p>
              <FormattedMessage id="contacts.import.correct" defaultMessage="Correct these lines and import the file again:" />
            </p>
            <HTMLTable compact className="contacts-import-errors" aria-label={intl.formatMessage({ id: 'contacts.import.errors', defaultMessage: 'Lines that could not be imported' })}>
              <thead>
                <tr>
                  <th>
                    <FormattedMessage id="contacts.import.line" defaultMessage="Line" />
                  </th>
                  <th>
                    <FormattedMessage id="contacts.import.problem" defaultMessage="Problem" />
                  </th>
                </tr>
              </thead>
              <tbody>
                {outcome.errors.map((error, index) => (
                  <tr key={index}>
                    <td>{error.line}</td>
                    <td>{error.message}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={intl.formatMessage({ id: 'account.cancel', defaultMessage: 'Cancel' })} onClick={close} />
            <Button intent="primary" text={intl.formatMessage({ id: 'contacts.import.submit', defaultMessage: 'Import' })} icon="import" loading={loading} disabled={!file || outcome?.kind === 'refused'} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}
