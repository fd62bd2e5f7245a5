import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import type { Role } from '../../apollo/generated/graphql';
import { errorField, errorMessage } from '../../apollo/errors';
import { snackbar } from '../../common/toaster';
import { InviteStaffMutation, StaffQuery } from './staff-operations';

/** "Invite": an e-mail address and a role; afterwards the link, to pass on by hand if the e-mail does not arrive. */
export function InviteDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('STAFF');
  const [problem, setProblem] = useState<{ field?: string; message: string } | null>(null);
  const [sent, setSent] = useState<{ email: string; url: string; emailError: string | null } | null>(null);
  const [invite, { loading }] = useMutation(InviteStaffMutation, { refetchQueries: [{ query: StaffQuery }], awaitRefetchQueries: true });

  const close = () => {
    setEmail('');
    setRole('STAFF');
    setProblem(null);
    setSent(null);
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      const { data } = await invite({ variables: { input: { email, role } } });
      const result = data!.inviteStaff;
      setSent({ email: result.invitation.email, url: result.acceptUrl, emailError: result.invitation.emailError ?? null });
      void snackbar(`Invitation sent to ${result.invitation.email}`);
    } catch (error) {
      setProblem({ field: errorField(error), message: errorMessage(error, 'The invitation could not be sent') });
    }
  };
  const emailProblem = problem?.field === 'email' ? problem.message : undefined;

  return (
    <Dialog isOpen={isOpen} onClose={close} title="Invite to the staff" icon="new-person" className="staff-invite-dialog">
      {sent ? (
        <>
          <DialogBody>
            {sent.emailError ? (
              <Callout intent="warning" title="The e-mail could not be sent">
                {sent.emailError}. Pass the link below on yourself.
              </Callout>
            ) : (
              <p>
                An invitation is on its way to <strong>{sent.email}</strong>. The link works once, for 7 days.
              </p>
            )}
            <FormGroup label="Invitation link" labelFor="invite-link" helperText="Shown once: only a fingerprint of it is kept.">
              <InputGroup id="invite-link" readOnly value={sent.url} onFocus={(event) => event.currentTarget.select()} rightElement={<Button variant="minimal" icon="duplicate" aria-label="Copy the link" onClick={() => void navigator.clipboard?.writeText(sent.url).then(() => snackbar('Link copied'))} />} />
            </FormGroup>
          </DialogBody>
          <DialogFooter actions={<Button intent="primary" text="Done" onClick={close} />} />
        </>
      ) : (
        <form onSubmit={submit}>
          <DialogBody>
            {problem && !emailProblem && <Callout intent="danger" className="staff-problem">{problem.message}</Callout>}
            <FormGroup label="E-mail" labelFor="invite-email" intent={emailProblem ? 'danger' : 'none'} helperText={emailProblem ?? 'The invitation goes to this address.'}>
              <InputGroup id="invite-email" type="email" value={email} onValueChange={setEmail} required autoFocus intent={emailProblem ? 'danger' : 'none'} />
            </FormGroup>
            <FormGroup label="Role" labelFor="invite-role" helperText={role === 'ADMIN' ? 'Admins run the whole shop.' : 'Staff use Orders (search, details, resends, refunds), Customers and Sales.'}>
              <HTMLSelect id="invite-role" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)} options={[{ value: 'STAFF', label: 'Staff' }, { value: 'ADMIN', label: 'Admin' }]} />
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancel" onClick={close} />
                <Button type="submit" intent="primary" icon="send-message" text="Send invitation" loading={loading} />
              </>
            }
          />
        </form>
      )}
    </Dialog>
  );
}
