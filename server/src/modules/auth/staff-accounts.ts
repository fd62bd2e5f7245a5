import type { EntityManager } from '@mikro-orm/postgresql';
import { conflictOnUnique } from '../../core/db-errors.js';
import { conflict } from '../../core/errors.js';
import { escapeLike } from '../../core/text-search.js';
import { endAllSessions } from './remembered-sessions.js';
import { Role, User } from './user.entity.js';

/**
 * The accounts of the shop's people (admins and staff) as the Staff view manages them: the accounts
 * are this module's; who is invited, and the audit of it, are the staff module's.
 */
export const STAFF_ROLES: readonly Role[] = [Role.ADMIN, Role.STAFF];
const LAST_ADMIN = 'The shop needs at least one admin: make someone else an admin first.';

/** The admins and staff, by username. */
export function staffMembers(em: EntityManager): Promise<User[]> {
  return em.find(User, { role: { $in: [...STAFF_ROLES] } }, { orderBy: { username: 'asc' } });
}

export async function accountUsesEmail(em: EntityManager, email: string): Promise<boolean> {
  return (await em.count(User, { email })) > 0;
}

/** A new account of the shop's people, its address confirmed (the invitation reached it); CONFLICT when the name or address is taken. */
export async function createStaffAccount(em: EntityManager, input: { username: string; email: string; passwordHash: string; role: Role; now: Date }): Promise<User> {
  if (await em.count(User, { username: { $ilike: escapeLike(input.username) } })) throw conflict('That username is already taken.', 'username');
  if (await accountUsesEmail(em, input.email)) throw conflict('An account already uses this address.', 'email');
  const user = em.create(User, { username: input.username, email: input.email, passwordHash: input.passwordHash, role: input.role, emailConfirmedAt: input.now });
  await conflictOnUnique(() => em.flush(), () => conflict('That username or e-mail address is already taken.', 'username'));
  return user;
}

/**
 * An admin or staff member by id (null when there is none), after the lock that serialises every
 * change of the shop's people: "is there another admin?" stays true until the transaction commits.
 */
export async function lockedStaffMember(em: EntityManager, id: number): Promise<User | null> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', ['staff_roles']);
  return em.findOne(User, { id, role: { $in: [...STAFF_ROLES] } });
}

/** Gives a locked member another role; their sessions end so that they sign in again under it. The last admin stays one. */
export async function setStaffRole(em: EntityManager, member: User, role: Role): Promise<void> {
  if (member.role === Role.ADMIN) await assertOtherAdmin(em, member.id);
  member.role = role;
  await em.flush();
  await endAllSessions(em, member.id);
}

/** Removes a locked member's account; their tokens stop working at once (the sessions go with it). The last admin stays. */
export async function removeStaffAccount(em: EntityManager, member: User): Promise<void> {
  if (member.role === Role.ADMIN) await assertOtherAdmin(em, member.id);
  await em.nativeDelete(User, { id: member.id });
}

async function assertOtherAdmin(em: EntityManager, exceptId: number): Promise<void> {
  if (!(await em.count(User, { role: Role.ADMIN, id: { $ne: exceptId } }))) throw conflict(LAST_ADMIN, 'role');
}
