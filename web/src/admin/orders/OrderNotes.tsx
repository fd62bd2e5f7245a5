import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, TextArea } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
import { snackbar } from '../../common/toaster';
import { dateTime } from './order-format';
import { AddOrderNoteMutation, AdminOrderQuery } from './orders-operations';

const MAX_NOTE = 2000;

/** Order Details' internal notes: what the shop's people told each other about the order, oldest first, and a new one. */
export function OrderNotes({ orderId, notes }: { orderId: string; notes: { id: number; text: string; author: string; createdAt: string }[] }) {
  const [text, setText] = useState('');
  const [addNote, { loading }] = useMutation(AddOrderNoteMutation, { refetchQueries: [{ query: AdminOrderQuery, variables: { id: orderId } }], awaitRefetchQueries: true });
  const add = async () => {
    try {
      await addNote({ variables: { orderId, text } });
      setText('');
    } catch (error) {
      void snackbar(errorMessage(error, 'The note could not be added.'), 'danger');
    }
  };
  return (
    <section className="order-notes" aria-labelledby="order-notes-title">
      <h3 className="order-details-heading" id="order-notes-title">
        Notes
      </h3>
      {notes.length === 0 ? (
        <p className="muted">No notes yet. Notes are for the shop's people; customers never see them.</p>
      ) : (
        <ul className="order-notes-list">
          {notes.map((note) => (
            <li key={note.id}>
              <p>{note.text}</p>
              <span className="muted">
                {note.author} · {dateTime(note.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <TextArea aria-label="New note" fill rows={2} maxLength={MAX_NOTE} placeholder="Add a note for the team" value={text} onChange={(event) => setText(event.currentTarget.value)} />
      <Button className="order-notes-add" icon="comment" text="Add note" disabled={!text.trim()} loading={loading} onClick={() => void add()} />
    </section>
  );
}
