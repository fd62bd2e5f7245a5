import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, H2, H4, HTMLSelect, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { Role } from '../../apollo/generated/graphql';
import { useAuth } from '../../auth/auth-store';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { reportError } from '../../common/report-error';
import { SortableHeader, sortRows, type SortState } from '../../common/SortableHeader';
import { snackbar } from '../../common/toaster';
import { dateTime } from '../orders/order-format';
import { InviteDialog } from './InviteDialog';
import { ChangeStaffRoleMutation, RemoveStaffMutation, StaffQuery, WithdrawStaffInvitationMutation } from './staff-operations';
import './staff.css';

type Column = 'username' | 'email' | 'role' | 'joined';

/**
 * Staff: the shop's admins and staff (role changes and removal), the invitations not accepted yet
 * (withdraw), and "Invite". The server keeps the last admin; a removed person's sessions end at once.
 */
export function StaffScreen() {
  const { data, error, refetch } = useQuery(StaffQuery, { fetchPolicy: 'cache-and-network' });
  const me = useAuth().user;
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<{ id: number; username: string } | null>(null);
  const [withdrawing, setWithdrawing] = useState<{ id: number; email: string } | null>(null);
  const [sort, setSort] = useState<SortState<Column>>({ key: 'username', descending: false });
  const refetchStaff = { refetchQueries: [{ query: StaffQuery }], awaitRefetchQueries: true };
  const [changeRole] = useMutation(ChangeStaffRoleMutation, refetchStaff);
  const [remove] = useMutation(RemoveStaffMutation, refetchStaff);
  const [withdraw] = useMutation(WithdrawStaffInvitationMutation, refetchStaff);

  const setRole = async (member: { id: number; username: string }, role: Role) => {
    try {
      await changeRole({ variables: { id: member.id, role } });
      void snackbar(`${member.username} is now ${role === 'ADMIN' ? 'an admin' : 'staff'}; they sign in again to use it`);
    } catch (err) {
      reportError('changing a role', 'Failed to change the role', err);
    }
  };
  const confirmRemove = async () => {
    const member = removing;
    setRemoving(null);
    if (!member) return;
    try {
      await remove({ variables: { id: member.id } });
      void snackbar(`${member.username} was removed`);
    } catch (err) {
      reportError('removing a staff member', 'Failed to remove', err);
    }
  };
  const confirmWithdraw = async () => {
    const invitation = withdrawing;
    setWithdrawing(null);
    if (!invitation) return;
    try {
      await withdraw({ variables: { id: invitation.id } });
      void snackbar(`The invitation of ${invitation.email} was withdrawn`);
    } catch (err) {
      reportError('withdrawing an invitation', 'Failed to withdraw the invitation', err);
    }
  };

  const staff = data?.staff;
  const members = staff ? sortRows(staff.members, sort, (m, key) => (key === 'joined' ? m.createdAt : key === 'role' ? m.role : m[key].toLowerCase())) : [];
  const header = (label: string, column: Column) => <SortableHeader label={label} column={column} sort={sort} onSort={setSort} firstDescending={column === 'joined'} />;

  return (
    <div className="staff-screen">
      <div className="staff-toolbar">
        <H2>Staff</H2>
        <Button intent="primary" icon="new-person" text="Invite" onClick={() => setInviting(true)} />
      </div>
      {error && !staff ? (
        <Callout intent="danger" title="The staff could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !staff ? (
        <Spinner className="staff-state" />
      ) : (
        <>
          <div className="staff-table-wrap">
            <table className="bp6-html-table bp6-html-table-striped staff-table" aria-label="Admins and staff">
              <thead>
                <tr>
                  {header('Username', 'username')}
                  {header('E-mail', 'email')}
                  {header('Role', 'role')}
                  {header('Joined', 'joined')}
                  <th />
                </tr>
              </thead>
              <tbody>
                {members.map((member) => (
                  <tr key={member.id}>
                    <td className="staff-name">
                      {member.username}
                      {String(member.id) === me?.sub && <Tag minimal className="staff-you">you</Tag>}
                    </td>
                    <td>{member.email}</td>
                    <td>
                      <HTMLSelect
                        aria-label={`Role of ${member.username}`}
                        value={member.role}
                        onChange={(event) => void setRole(member, event.currentTarget.value as Role)}
                        options={[
                          { value: 'ADMIN', label: 'Admin' },
                          { value: 'STAFF', label: 'Staff' },
                        ]}
                      />
                    </td>
                    <td>{dateTime(member.createdAt)}</td>
                    <td className="staff-actions">
                      <Button variant="minimal" intent="danger" icon="trash" aria-label={`Remove ${member.username}`} title="Remove" onClick={() => setRemoving(member)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <H4 className="staff-subheading">Invitations</H4>
          {staff.invitations.length === 0 ? (
            <p className="muted">No invitations waiting. “Invite” sends one by e-mail; its link works once, for 7 days.</p>
          ) : (
            <div className="staff-table-wrap">
              <table className="bp6-html-table bp6-html-table-striped staff-table" aria-label="Invitations">
                <thead>
                  <tr>
                    <th>E-mail</th>
                    <th>Role</th>
                    <th>Sent</th>
                    <th>Link works until</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {staff.invitations.map((invitation) => (
                    <tr key={invitation.id}>
                      <td>
                        {invitation.email}
                        {invitation.emailError && (
                          <Tag minimal intent="warning" className="staff-you" title={invitation.emailError}>
                            e-mail not sent
                          </Tag>
                        )}
                      </td>
                      <td>{invitation.role === 'admin' ? 'Admin' : 'Staff'}</td>
                      <td>{dateTime(invitation.createdAt)}</td>
                      <td>{dateTime(invitation.expiresAt)}</td>
                      <td className="staff-actions">
                        <Button variant="minimal" icon="cross" text="Withdraw" onClick={() => setWithdrawing(invitation)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {staff.members.length === 0 && <NonIdealState icon="people" title="Nobody yet" />}
        </>
      )}
      <InviteDialog isOpen={inviting} onClose={() => setInviting(false)} />
      <ConfirmAlert isOpen={removing !== null} confirmText="Remove" message={`Remove ${removing?.username ?? ''}? Their account is deleted and they are signed out at once; what they did stays in the audit log.`} onConfirm={() => void confirmRemove()} onCancel={() => setRemoving(null)} />
      <ConfirmAlert isOpen={withdrawing !== null} confirmText="Withdraw" message={`Withdraw the invitation of ${withdrawing?.email ?? ''}? Its link stops working.`} onConfirm={() => void confirmWithdraw()} onCancel={() => setWithdrawing(null)} />
    </div>
  );
}
