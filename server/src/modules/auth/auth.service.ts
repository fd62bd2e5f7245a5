import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflictOnUnique } from '../../core/db-errors.js';
import type { RequestContext, Viewer } from '../../core/context.js';
import { AppError, badInput, conflict, unauthenticated } from '../../core/errors.js';
import { AuthSession } from './auth-session.entity.js';
import { checkPassword, MAX_PASSWORD_LENGTH, normaliseEmail, normaliseUsername } from './auth.validation.js';
import { MAX_EMAIL_LENGTH } from '../../rules/index.js';
import type { RateLimits } from '../limits/index.js';
import { Passwords } from './passwords.js';
import { endAllSessions, RememberedSessions, SESSION_MAX_AGE_SECONDS } from './remembered-sessions.js';
import type { TokenService } from './token.service.js';
import { Role, User } from './user.entity.js';
import { escapeLike } from '../../core/text-search.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  usernameTaken: { id: 'error.account.usernameTaken', defaultMessage: 'That username is already taken.' },
  emailTaken: { id: 'error.account.emailTaken', defaultMessage: 'That e-mail address is already registered.' },
  eitherTaken: { id: 'error.account.eitherTaken', defaultMessage: 'That username or e-mail address is already taken.' },
  invalid: { id: 'error.account.invalidCredentials', defaultMessage: 'Invalid username or password' },
  noSession: { id: 'error.account.noSession', defaultMessage: 'There is no session to resume. Please sign in.' },
  ended: { id: 'error.account.sessionEnded', defaultMessage: 'This session has ended. Please sign in again.' },
  reauthenticate: { id: 'error.account.reauthenticate', defaultMessage: 'Type your current password to change it.' },
  wrongPassword: { id: 'error.account.wrongPassword', defaultMessage: 'That password is not right.' },
});

export interface RegisterInputData {
  username?: unknown;
  email?: unknown;
  password?: unknown;
}

export interface SignedIn {
  token: string;
  user: User;
}

const INVALID_CREDENTIALS = refusals.invalid;

/** How long after signing in a session may change the password without typing the current one. */
export const REAUTHENTICATE_AFTER_MS = 10 * 60_000;

export class AuthService {
  /** Verified against when the username is unknown, so both failures take the same time. */
  private dummyHash?: Promise<string>;

  /** Told of a new account in the transaction that writes it (the address confirmation is queued there). */
  onRegistered: ((em: EntityManager, user: User) => Promise<void>) | null = null;

  /** Told of a new password in the transaction that sets it (the account's e-mailed links end there). */
  onPasswordChanged: ((em: EntityManager, userId: number) => Promise<void>) | null = null;

  constructor(
    private readonly tokens: TokenService,
    private readonly limits: RateLimits,
    /** Hashes and checks passwords (staff invitations and password resets set theirs through it too). */
    readonly passwords: Passwords = new Passwords(),
    private readonly clock: () => Date = () => new Date(),
    /** The browsers that keep their user signed in ("Keep me signed in"). */
    readonly remembered: RememberedSessions = new RememberedSessions(),
  ) {}

  async register(ctx: RequestContext, input: RegisterInputData): Promise<{ message: string; user: User }> {
    const username = normaliseUsername(input.username);
    const email = normaliseEmail(input.email);
    const password = checkPassword(input.password);
    // Taken before the checks and never given back: a 409 tells whether an address has an account,
    // so every attempt that gets that far counts (see REGISTER_MAX_PER_HOUR).
    await this.limits.take([this.limits.rules.register, ctx.ip]);
    const passwordHash = await this.passwords.hash(password);
    const user = await ctx.em.fork().transactional(async (em) => {
      if (await em.count(User, { username: { $ilike: escapeLike(username) } })) throw conflict(refusals.usernameTaken, 'username');
      if (await em.count(User, { email })) throw conflict(refusals.emailTaken, 'email');
      const user = em.create(User, { username, email, passwordHash, role: Role.CUSTOMER, locale: ctx.locale });
      // Two registrations racing for the same name: the database's unique index decides.
      await conflictOnUnique(() => em.flush(), () => conflict(refusals.eitherTaken));
      // The confirmation e-mail is queued with the account: both are written, or neither.
      await this.onRegistered?.(em, user);
      return user;
    });
    ctx.log.info({ userId: user.id }, 'user registered');
    return { message: `Successfully registered with email ${email}`, user };
  }

  /**
   * Signs in by username or e-mail address (any case). With `remember`, the browser also gets the
   * `session` cookie that signs it in again in a new tab (see resumeSession).
   */
  async login(ctx: RequestContext, input: { username?: unknown; password?: unknown; remember?: unknown }): Promise<SignedIn> {
    const login = typeof input.username === 'string' ? input.username.trim() : '';
    const password = typeof input.password === 'string' ? input.password : '';
    // Nothing longer than an e-mail address names an account, and no password is longer than the
    // longest one the shop takes: such input is a failed attempt without being looked up or hashed.
    const named = login !== '' && login.length <= MAX_EMAIL_LENGTH;
    const user = named ? await ctx.em.findOne(User, login.includes('@') ? { email: login.toLowerCase() } : { username: { $ilike: escapeLike(login) } }) : null;
    // Counted against the account once it is known, whether it was named by its username or its
    // e-mail address (else against what was typed). The points are taken before the password is
    // checked, so parallel guesses cannot overrun the limit; a right password gives them back.
    const account = user ? user.username.toLowerCase() : login.toLowerCase();
    const attempt = await this.limits.take([this.limits.rules.loginPerUsername, account], [this.limits.rules.loginPerAddress, ctx.ip]);
    const checkable = password.length <= MAX_PASSWORD_LENGTH;
    const valid = user && checkable
      ? await this.passwords.verify(user.passwordHash, password)
      : (await this.passwords.verify(await this.dummy(), checkable ? password : ''), false);
    if (!user || !valid) {
      // What was typed (a username, or a password typed into the wrong field) stays out of the log.
      ctx.log.info({ userId: user?.id ?? null }, 'login failed');
      throw unauthenticated(INVALID_CREDENTIALS);
    }
    await attempt.giveBack();
    // The shopper's language follows the page they sign in from (see User.locale).
    if (user.locale !== ctx.locale) {
      await ctx.em.nativeUpdate(User, { id: user.id }, { locale: ctx.locale });
      user.locale = ctx.locale;
    }
    if (input.remember !== true || !ctx.sessionCookie) return { token: await this.startSession(ctx.em, user), user };
    const token = await ctx.em.transactional(async (em) => {
      const { session, cookie } = await this.remembered.start(em, user, this.clock());
      const issued = await this.startSession(em, user, session.id);
      ctx.sessionCookie!.write(cookie, SESSION_MAX_AGE_SECONDS);
      return issued;
    });
    return { token, user };
  }

  /**
   * A new tab, or a link from an e-mail: the `session` cookie signs the browser in again. The cookie
   * is swapped for a new one each time; one used again after it was swapped (a copy) ends the whole
   * session. No cookie, or one that names no session: UNAUTHENTICATED (and the browser forgets it).
   */
  async resumeSession(ctx: RequestContext): Promise<SignedIn> {
    const cookie = ctx.sessionCookie?.read();
    if (!cookie) throw unauthenticated(refusals.noSession);
    const resumed = await this.remembered.resume(ctx.em, cookie, this.clock());
    if (resumed.kind !== 'resumed') {
      ctx.sessionCookie!.clear();
      if (resumed.kind === 'reused') ctx.log.warn({ userId: resumed.userId }, 'a session cookie was used again after it was replaced; the session ended');
      throw unauthenticated(refusals.ended);
    }
    const user = resumed.session.user;
    const token = await this.startSession(ctx.em, user, resumed.session.id);
    if (resumed.cookie) ctx.sessionCookie!.write(resumed.cookie, SESSION_MAX_AGE_SECONDS);
    return { token, user };
  }

  /** Ends the caller's session: the token, and the remembered session it came from (the cookie goes too). */
  async logout(ctx: RequestContext): Promise<void> {
    const viewer = await ctx.requireViewer();
    const remembered = await this.remembered.of(ctx.em, viewer.jti);
    // Ending a remembered session ends its tokens (this one among them) with it.
    if (remembered) await this.remembered.end(ctx.em, remembered);
    else await ctx.em.nativeDelete(AuthSession, { jti: viewer.jti });
    ctx.sessionCookie?.clear();
  }

  /** "Sign out everywhere": every token of the caller and every browser that keeps them signed in, this one too. */
  async signOutEverywhere(ctx: RequestContext): Promise<void> {
    const viewer = await ctx.requireViewer();
    await ctx.em.transactional((em) => endAllSessions(em, viewer.user.id));
    ctx.sessionCookie?.clear();
    ctx.log.info({ userId: viewer.user.id }, 'signed out everywhere');
  }

  /**
   * Sets a new password, ends every session of the user (the caller's too) and every link e-mailed
   * about the account, and starts a fresh session. The current password is asked (and counted like a
   * login when wrong, see confirmPassword), so that a stolen session cannot take the account over; it
   * may be left out only by a session issued in the last 10 minutes (REAUTHENTICATE otherwise).
   */
  async changePassword(ctx: RequestContext, input: { newPassword?: unknown; currentPassword?: unknown }): Promise<{ message: string; token: string }> {
    const password = checkPassword(input.newPassword, 'newPassword');
    const viewer = await ctx.requireViewer();
    const user = viewer.user as User;
    const current = input.currentPassword;
    if (current === undefined || current === null || current === '') {
      if (!(await this.issuedRecently(ctx.em, viewer.jti))) throw new AppError('REAUTHENTICATE', refusals.reauthenticate);
    } else await this.confirmPassword(ctx, user, current, 'currentPassword');
    const token = await ctx.em.transactional(async (em) => {
      const fresh = await em.findOneOrFail(User, user.id);
      fresh.passwordHash = await this.passwords.hash(password);
      await endAllSessions(em, fresh.id);
      await this.onPasswordChanged?.(em, fresh.id);
      return this.startSession(em, fresh);
    });
    ctx.sessionCookie?.clear();
    return { message: 'Password changed successfully', token };
  }

  /**
   * Checks the signed-in caller's password again before a change that needs it (a new address,
   * deleting the account). Counted like a failed login against the account, so that a stolen session
   * cannot guess the password faster than the sign-in page allows; a right password gives its point
   * back. A wrong one is BAD_USER_INPUT on the field (the session stays signed in).
   */
  async confirmPassword(ctx: RequestContext, user: User, password: unknown, field = 'password'): Promise<void> {
    const typed = typeof password === 'string' ? password : '';
    const attempt = await this.limits.take([this.limits.rules.loginPerUsername, user.username.toLowerCase()], [this.limits.rules.loginPerAddress, ctx.ip]);
    const valid = typed !== '' && typed.length <= MAX_PASSWORD_LENGTH && (await this.passwords.verify(user.passwordHash, typed));
    if (!valid) throw badInput(refusals.wrongPassword, field);
    await attempt.giveBack();
  }

  /** Whether the session was issued (its token signed) in the last REAUTHENTICATE_AFTER_MS; its row says when. */
  private async issuedRecently(em: EntityManager, jti: string): Promise<boolean> {
    const session = await em.findOne(AuthSession, { jti });
    return session !== null && Date.now() - session.createdAt.getTime() < REAUTHENTICATE_AFTER_MS;
  }

  /** The signed-in caller's user, or null (the viewer's user is the User row authenticate() read with the session). */
  async me(ctx: RequestContext): Promise<User | null> {
    return ((await ctx.viewer())?.user as User | undefined) ?? null;
  }

  /** The signed-in caller's user; UNAUTHENTICATED otherwise. */
  async requireUser(ctx: RequestContext): Promise<User> {
    return (await ctx.requireViewer()).user as User;
  }

  /** Checks the signature and expiry, then that the session still exists (not logged out, no password change since). */
  async authenticate(em: EntityManager, token: string): Promise<Viewer<User>> {
    const claims = await this.tokens.verify(token);
    const session = await em.findOne(AuthSession, { jti: claims.jti }, { populate: ['user'] });
    if (!session || String(session.user.id) !== claims.sub) throw unauthenticated(refusals.ended);
    return { user: session.user, jti: session.jti };
  }

  /**
   * Creates the first admin when there is none. Returns the generated password when none was
   * configured, so that the caller can print it once.
   */
  async ensureAdmin(em: EntityManager, admin: { username: string; email: string; password?: string }): Promise<{ created: boolean; generatedPassword?: string }> {
    if (await em.count(User, { role: Role.ADMIN })) return { created: false };
    const generatedPassword = admin.password ? undefined : crypto.randomBytes(12).toString('base64url');
    const password = checkPassword(admin.password ?? generatedPassword, 'ADMIN_PASSWORD');
    em.create(User, {
      username: normaliseUsername(admin.username),
      email: normaliseEmail(admin.email),
      passwordHash: await this.passwords.hash(password),
      role: Role.ADMIN,
    });
    await em.flush();
    return { created: true, generatedPassword };
  }

  /** Issues a token for the user and records its session (in the caller's transaction, when there is one). */
  async startSession(em: EntityManager, user: User, rememberedSessionId?: string): Promise<string> {
    const { token, jti, expiresAt } = await this.tokens.issue(user, rememberedSessionId);
    em.create(AuthSession, { jti, user, expiresAt, rememberedSession: rememberedSessionId ?? null });
    // Expired sessions of this user are no longer useful; dropping them keeps the table small.
    await em.nativeDelete(AuthSession, { user: user.id, expiresAt: { $lt: new Date() } });
    await em.flush();
    return token;
  }

  private dummy(): Promise<string> {
    return (this.dummyHash ??= this.passwords.hash(crypto.randomBytes(16).toString('hex')));
  }
}

