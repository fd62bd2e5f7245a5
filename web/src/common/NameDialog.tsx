import { useEffect, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';

/** Asks for a name (create a folder, rename a folder, a file or a product type). An empty name does nothing. */
export function NameDialog({
  isOpen,
  title,
  label,
  initial = '',
  confirmText,
  onConfirm,
  onClose,
}: {
  isOpen: boolean;
  title: string;
  label: string;
  initial?: string;
  confirmText: string;
  onConfirm: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  useEffect(() => {
    if (isOpen) setName(initial);
  }, [isOpen, initial]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    onConfirm(name.trim());
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={title}>
      <form onSubmit={submit}>
        <DialogBody>
          <FormGroup label={label} labelFor="name-dialog-input">
            <InputGroup id="name-dialog-input" value={name} onValueChange={setName} autoFocus />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={[<Button key="cancel" text="Cancel" onClick={onClose} />, <Button key="ok" type="submit" intent="primary" text={confirmText} />]} />
      </form>
    </Dialog>
  );
}
