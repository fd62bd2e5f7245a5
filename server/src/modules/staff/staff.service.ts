import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { AppError, badInput, conflict, notFound } from '../../core/errors.js';
import { recordAudit } from '../audit/index.js';
import { checkPassword, normaliseEmail, normaliseUsername, Role, accountUsesEmail, createStaffAccount, lockedStaffMember, removeStaffAccount, setStaffRole, staffMembers, type AuthService, type SignedIn, type User } from '../auth/index.js';
import { ANY_STATUS, MailJobStatus, type MailQueue } from '../mail/index.js';
import { invitationRef, registerStaffEmails, STAFF_INVITATION_KIND, type InvitationPayload } from './staff-emails.js';
import { StaffInvitation } from './staff-invitation.entity.js';

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;
const tokenInvalid = () => new AppError('TOKEN_INVALID', 'This invitation link is not valid: it was used already, it has expired, or it was withdrawn. Ask for a new invitation.');
const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface StaffServiceOptions {
  auth: AuthService;
  mail: MailQueue;
  /** The shop's public address, for the invitation link. */
  baseUrl: string;
  clock: () => Date;
}

/**
 * The shop's people: admins and staff. Admins invite by e-mail (a single-use link for 7 days), change
 * roles and remove people; a removed person's tokens stop working at once (their sessions go with the
 * account), and a changed role ends their sessions so that they sign in again under it. The last admin
 * can be neither removed nor demoted: role changes take one advisory lock, so two admins demoting each
 * other at once cannot both succeed.
 */
export class StaffService {
  constructor(private readonly options: StaffServiceOptions) {
    registerStaffEmails(options.mail);
  }

  async list(ctx: RequestContext): Promise<{ members: User[]; invitations: StaffInvitation[] }> {
    const [members, invitations] = await Promise.all([
      staffMembers(ctx.em),
      ctx.em.find(StaffInvitation, { acceptedAt: null, expiresAt: { $gt: this.options.clock() } }, { orderBy: { createdAt: 'desc' } }),
    ]);
    // An invitation whose e-mail has not gone out shows why (the queue keeps retrying it).
    const refs = invitations.map((invitation) => invitationRef(invitation.id));
    const unsent = ANY_STATUS.filter((status) => status !== MailJobStatus.SENT);
    const jobs = refs.length ? await this.options.mail.find(ctx.em, { refs, kinds: [STAFF_INVITATION_KIND], statuses: unsent }) : [];
    const errors = new Map(jobs.filter((job) => job.lastError && job.ref).map((job) => [Number(job.ref!.id), job.lastError]));
    for (const invitation of invitations) invitation.emailError = errors.get(invitation.id) ?? null;
    return { members, invitations };
  }

  /** Invites an address; an earlier open invitation of the same address is replaced. Answers the link once. */
  async invite(ctx: RequestContext, input: { email?: unknown; role?: unknown }): Promise<{ invitation: StaffInvitation; acceptUrl: string }> {
    const email = normaliseEmail(input.email);
    const role = staffRole(input.role);
    const inviter = (await ctx.requireViewer()).user as User;
    const token = crypto.randomBytes(32).toString('base64url');
    const acceptUrl = `${this.options.baseUrl}/staff/accept?token=${token}`;
    const invitation = await ctx.em.fork().transactional(async (em) => {
      if (await accountUsesEmail(em, email)) throw conflict('An account already uses this address.', 'email');
      await em.nativeDelete(StaffInvitation, { email, acceptedAt: null });
      const expiresAt = new Date(this.options.clock().getTime() + INVITATION_DAYS * 86_400_000);
      const invitation = em.create(StaffInvitation, { email, role, tokenHash: hashToken(token), invitedBy: inviter.id, expiresAt });
      await em.flush();
      // Queued with the invitation: the queue sends it (and retries it), and the Staff view shows why
      // it has not gone out yet; the link is also answered to pass on by hand.
      const payload: InvitationPayload = { invitationId: invitation.id, role, link: acceptUrl, invitedBy: inviter.username, expiresAt: expiresAt.toISOString() };
      await this.options.mail.enqueue(em, { kind: STAFF_INVITATION_KIND, to: email, dueAt: this.options.clock(), payload, ref: invitationRef(invitation.id) });
      await recordAudit(withEm(ctx, em), { entity: 'staff', id: invitation.id, action: 'invited', summary: `Invited ${email} as ${role}` });
      return invitation;
    });
    ctx.log.info({ invitationId: invitation.id, role }, 'staff invitation created');
    return { invitation, acceptUrl };
  }

  async withdrawInvitation(ctx: RequestContext, id: number): Promise<void> {
    await ctx.em.fork().transactional(async (em) => {
      const invitation = await em.findOne(StaffInvitation, { id, acceptedAt: null });
      if (!invitation) throw notFound('Invitation');
      await em.nativeDelete(StaffInvitation, { id });
      await this.options.mail.drop(em, { refs: [invitationRef(id)], statuses: [MailJobStatus.QUEUED, MailJobStatus.FAILED] });
      await recordAudit(withEm(ctx, em), { entity: 'staff', id, action: 'withdrawn', summary: `Withdrew the invitation of ${invitation.email}` });
    });
  }

  /**
   * Accepts an invitation: a new account with the invited address and role, signed in at once. The
   * invitation is taken by one conditional UPDATE, so a link used twice at the same moment makes one
   * account; a used, expired, withdrawn or unknown link is TOKEN_INVALID.
   */
  async accept(ctx: RequestContext, input: { token?: unknown; username?: unknown; password?: unknown }): Promise<SignedIn> {
    const token = typeof input.token === 'string' ? input.token.trim() : '';
    if (!token) throw tokenInvalid();
    const username = normaliseUsername(input.username);
    const password = checkPassword(input.password);
    const passwordHash = await this.options.auth.passwords.hash(password);
    const now = this.options.clock();
    const signedIn = await ctx.em.fork().transactional(async (em) => {
      const [row] = await em.execute<{ id: number }[]>(
        `update "staff_invitation" set "accepted_at" = ? where "token_hash" = ? and "accepted_at" is null and "expires_at" > ? returning "id"`,
        [now, hashToken(token), now],
      );
      if (!row) throw tokenInvalid();
      const invitation = await em.findOneOrFail(StaffInvitation, row.id);
      const user = await createStaffAccount(em, { username, email: invitation.email, passwordHash, role: invitation.role as Role, now });
      invitation.acceptedUser = user;
      await em.flush();
      const session = await this.options.auth.startSession(em, user);
      await recordAudit(withEm(ctx, em), { entity: 'staff', id: user.id, action: 'joined', summary: `${user.username} accepted the invitation as ${user.role}`, actor: user });
      return { token: session, user };
    });
    ctx.log.info({ userId: signedIn.user.id, role: signedIn.user.role }, 'staff invitation accepted');
    return signedIn;
  }

  /** Makes an admin staff or staff an admin; their sessions end so that they sign in again under the new role. */
  async changeRole(ctx: RequestContext, id: number, rawRole: unknown): Promise<User> {
    const role = staffRole(rawRole);
    return ctx.em.fork().transactional(async (em) => {
      const member = await this.lockedMember(em, id);
      if (member.role === role) return member;
      const before = member.role;
      await setStaffRole(em, member, role);
      await recordAudit(withEm(ctx, em), { entity: 'staff', id: member.id, action: 'updated', summary: `${member.username}: role ${before} → ${role}` });
      return member;
    });
  }

  /** Removes a person's account; their tokens stop working at once (the sessions go with it). */
  async remove(ctx: RequestContext, id: number): Promise<void> {
    await ctx.em.fork().transactional(async (em) => {
      const member = await this.lockedMember(em, id);
      await removeStaffAccount(em, member);
      await recordAudit(withEm(ctx, em), { entity: 'staff', id: member.id, action: 'removed', summary: `Removed ${member.username} (${member.role}, ${member.email})` });
    });
    ctx.log.info({ userId: id }, 'staff member removed');
  }

  /** An admin or staff member by id, after the lock that serialises role changes. */
  private async lockedMember(em: EntityManager, id: number): Promise<User> {
    const member = await lockedStaffMember(em, id);
    if (!member) throw notFound('Staff member');
    return member;
  }
}

function staffRole(value: unknown): Role {
  const role = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (role !== Role.ADMIN && role !== Role.STAFF) throw badInput('role must be "admin" or "staff".', 'role');
  return role as Role;
}
