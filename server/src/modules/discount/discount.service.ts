import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflictOnUnique } from '../../core/db-errors.js';
import { withEm, type RequestContext } from '../../core/context.js';
import { describeChanges, named, recordAudit } from '../audit/index.js';
import { AppError, badInput, conflict, notFound } from '../../core/errors.js';
import type { RateLimits, Taken } from '../limits/index.js';
import { DiscountCode } from './discount-code.entity.js';
import { cleanDiscountInput, discountOf, UNKNOWN_CODE, UNUSABLE_CODE, unusableReason } from './discount-rules.js';

export interface AppliedDiscount {
  /** The code as the admin wrote it. */
  code: string;
  amount: string;
}

const TAKEN = 'A discount code with this name already exists (codes ignore case).';
/** Where a request keeps the one code it tried (RequestContext.scope). */
const TRIED_CODE = 'discount.tried-code';

/**
 * Discount codes: the admin's list and edits, and pricing a cart with a code. A use is counted by one
 * conditional UPDATE inside the checkout's transaction (`uses < max_uses`), so concurrent checkouts
 * racing for the last use get exactly one success. Codes cannot be guessed at leisure: every code
 * tried that cannot be used costs the caller's address a point (kept in PostgreSQL), a request may
 * try one code, and an anonymous caller hears one message whatever the reason.
 */
export class DiscountService {
  constructor(
    private readonly clock: () => Date,
    private readonly limits: RateLimits,
  ) {}

  list(ctx: RequestContext): Promise<DiscountCode[]> {
    return ctx.em.find(DiscountCode, {}, { orderBy: { code: 'asc' } });
  }

  async create(ctx: RequestContext, raw: Record<string, unknown>): Promise<DiscountCode> {
    const input = cleanDiscountInput(raw);
    const code = await ctx.em.fork().transactional(async (em) => {
      if (await this.byCode(em, input.code)) throw conflict(TAKEN, 'code');
      const code = em.create(DiscountCode, input);
      await conflictOnUnique(() => em.flush(), () => conflict(TAKEN, 'code'));
      await recordAudit(withEm(ctx, em), { entity: 'discount', id: code.id, action: 'created', summary: `Created ${named(code.code)}: ${offOf(code)}` });
      return code;
    });
    ctx.log.info({ discountId: code.id, code: code.code }, 'discount code created');
    return code;
  }

  async update(ctx: RequestContext, id: number, raw: Record<string, unknown>): Promise<DiscountCode> {
    const input = cleanDiscountInput(raw);
    return ctx.em.fork().transactional(async (em) => {
      const code = await em.findOne(DiscountCode, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!code) throw notFound('Discount code');
      const other = await this.byCode(em, input.code);
      if (other && other.id !== id) throw conflict(TAKEN, 'code');
      if (input.maxUses !== null && input.maxUses < code.uses) throw badInput(`This code was already used ${code.uses} times; the maximum cannot be lower.`, 'maxUses');
      const before = discountSnapshot(code);
      em.assign(code, input);
      await conflictOnUnique(() => em.flush(), () => conflict(TAKEN, 'code'));
      const changes = describeChanges(before, discountSnapshot(code), { code: 'code', off: 'discount', startsAt: 'start', endsAt: 'end', maxUses: 'maximum uses' });
      await recordAudit(withEm(ctx, em), { entity: 'discount', id, action: 'updated', summary: `${named(code.code)}: ${changes}` });
      return code;
    });
  }

  /** Deletes a code; orders that used it keep its name and their discount. */
  async delete(ctx: RequestContext, id: number): Promise<void> {
    await ctx.em.fork().transactional(async (em) => {
      const [row] = await em.execute<{ code: string }[]>('delete from "discount_code" where "id" = ? returning "code"', [id]);
      if (!row) throw notFound('Discount code');
      await recordAudit(withEm(ctx, em), { entity: 'discount', id, action: 'deleted', summary: `Deleted ${named(row.code)}` });
    });
    ctx.log.info({ discountId: id }, 'discount code deleted');
  }

  /** What a code takes off a subtotal now, without using it (the cart's quote); a code that cannot be used is a bad input. */
  async price(ctx: RequestContext, rawCode: string, subtotal: string): Promise<AppliedDiscount> {
    const attempt = await this.attempt(ctx, rawCode);
    const code = await this.byCode(ctx.em, rawCode);
    const reason = code ? unusableReason(code, this.clock()) : UNKNOWN_CODE;
    if (!code || reason) throw await this.refusal(ctx, reason!);
    await attempt.giveBack();
    return { code: code.code, amount: discountOf(code, subtotal) };
  }

  /**
   * Uses a code for an order being placed (inside its transaction): one conditional UPDATE, so the
   * row lock it takes makes concurrent checkouts wait and see the count the first one left.
   */
  async claim(tx: RequestContext, rawCode: string, subtotal: string): Promise<AppliedDiscount> {
    const now = this.clock();
    const rows = await tx.em.execute<{ code: string; percent_off: number | null; amount_off: string | null }[]>(
      `update "discount_code" set "uses" = "uses" + 1, "updated_at" = now()
        where lower("code") = lower(?) and ("starts_at" is null or "starts_at" <= ?) and ("ends_at" is null or "ends_at" > ?)
          and ("max_uses" is null or "uses" < "max_uses")
        returning "code", "percent_off", "amount_off"`,
      [rawCode, now, now],
    );
    const row = rows[0];
    if (!row) {
      // Why: unknown, not yet, expired or used up (said to signed-in shoppers only).
      const code = await this.byCode(tx.em, rawCode);
      throw await this.refusal(tx, (code && unusableReason(code, now)) || (code ? 'This discount code has been used up.' : UNKNOWN_CODE));
    }
    return { code: row.code, amount: discountOf({ percentOff: row.percent_off, amountOff: row.amount_off === null ? null : String(row.amount_off) }, subtotal) };
  }

  /**
   * Runs the placing of an order that claims `rawCode` (see claim) with the point the code's look-up
   * costs taken first, outside the order's transaction (whose connection must not wait for another
   * from the pool the limits count in); the point is kept only when the code turned out unusable.
   */
  async whileClaiming<T>(ctx: RequestContext, rawCode: string | null, place: () => Promise<T>): Promise<T> {
    if (!rawCode) return place();
    const attempt = await this.attempt(ctx, rawCode);
    try {
      const placed = await place();
      await attempt.giveBack();
      return placed;
    } catch (error) {
      if (!(error instanceof AppError && error.field === 'discountCode')) await attempt.giveBack();
      throw error;
    }
  }

  /** Gives a use back (a payment that was declined or abandoned). */
  async release(tx: RequestContext, code: string): Promise<void> {
    await tx.em.execute(`update "discount_code" set "uses" = "uses" - 1 where lower("code") = lower(?) and "uses" > 0`, [code]);
  }

  /**
   * Takes the point a code's look-up costs the caller's address (given back when the code can be
   * used, so only codes that cannot be used count); one code per request, so that one operation (a
   * GraphQL document of many aliased fields) cannot try many. The same code again costs nothing more.
   */
  private async attempt(ctx: RequestContext, rawCode: string): Promise<Taken> {
    const tried = ctx.scope.get(TRIED_CODE) as string | undefined;
    if (tried !== undefined) {
      if (tried !== rawCode.toLowerCase()) throw badInput('Only one discount code can be tried at a time.', 'discountCode');
      return { giveBack: async () => {} };
    }
    ctx.scope.set(TRIED_CODE, rawCode.toLowerCase());
    return this.limits.take([this.limits.rules.discountCode, ctx.ip]);
  }

  /** Why a code cannot be used, as the caller may hear it: the reason for signed-in shoppers, one message for anyone else. */
  private async refusal(ctx: RequestContext, reason: string): Promise<AppError> {
    return badInput((await ctx.viewer()) ? reason : UNUSABLE_CODE, 'discountCode');
  }

  private byCode(em: EntityManager, code: string): Promise<DiscountCode | null> {
    return em.findOne(DiscountCode, { code: { $ilike: code.replace(/[\\%_]/g, (c) => `\\${c}`) } });
  }
}

/** "20% off" or "$5.00 off". */
const offOf = (code: Pick<DiscountCode, 'percentOff' | 'amountOff'>) => (code.percentOff !== null ? `${code.percentOff}% off` : `$${code.amountOff} off`);

/** What the audit log compares of a discount code. */
const discountSnapshot = (code: DiscountCode) => ({ code: code.code, off: offOf(code), startsAt: code.startsAt, endsAt: code.endsAt, maxUses: code.maxUses });
