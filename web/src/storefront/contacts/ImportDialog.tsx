import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, HTMLTable } from '@blueprintjs/core';
import { CONTACTS_CSV_HEADER, MAX_CONTACTS, MAX_CONTACTS_CSV_BYTES } from '@rules';
import { errorMessage } from '../../apollo/errors';
import { snackbar } from '../../common/toaster';
import { ImportContactsMutation } from './contacts-operations';

type Outcome = { kind: 'refused'; message: string } | { kind: 'errors'; errors: { line: number; message: string }[] };

const kB = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString()} kB`;

/**
 * "Import CSV": a file with the header name,email,birthday (a birthday YYYY-MM-DD or MM-DD). All of
 * it is imported, or nothing: every line that cannot be is listed with its number.
 */
export function ImportDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
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
      setOutcome({ kind: 'refused', message: `This file is ${kB(chosen.size)}: an address book file can be at most ${kB(MAX_CONTACTS_CSV_BYTES)} (${MAX_CONTACTS.toLocaleString()} contacts fit well within it). Nothing was imported.` });
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
      void snackbar(`${result.imported.toLocaleString()} contact${result.imported === 1 ? '' : 's'} imported`);
      close();
    } catch (error) {
      setOutcome({ kind: 'refused', message: errorMessage(error, 'The file could not be imported.') });
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} title="Import CSV" icon="import" className="contacts-import-dialog">
      <DialogBody>
        <p>
          A CSV file whose first line is <code>{CONTACTS_CSV_HEADER.join(',')}</code>, then one contact a line; a birthday is written <code>1990-12-24</code> or <code>12-24</code> (or left empty). An address already in
          your book updates that contact.
        </p>
        <FileInput fill text={file?.name ?? 'Choose a file…'} buttonText="Browse" inputProps={{ accept: '.csv,text/csv,text/plain', 'aria-label': 'CSV file' }} onInputChange={(event) => choose(event.currentTarget.files?.[0] ?? null)} />
        {outcome?.kind === 'refused' && (
          <Callout intent="danger" className="contacts-import-outcome" role="alert">
            {outcome.message}
          </Callout>
        )}
        {outcome?.kind === 'errors' && (
          <Callout intent="danger" className="contacts-import-outcome" title="Nothing was imported" role="alert">
            <p>Correct these lines and import the file again:</p>
            <HTMLTable compact className="contacts-import-errors" aria-label="Lines that could not be imported">
              <thead>
                <tr>
                  <th>Line</th>
                  <th>Problem</th>
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
            <Button text="Cancel" onClick={close} />
            <Button intent="primary" text="Import" icon="import" loading={loading} disabled={!file || outcome?.kind === 'refused'} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}
