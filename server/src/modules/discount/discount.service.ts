import { LockMode } from '@mikro-orm/core';
import { toCents } from '../../core/money.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflictOnUnique } from '../../core/db-errors.js';
import { withEm, type RequestContext } from '../../core/context.js';
import { subtreeIds } from '../../core/tree.js';
import { describeChanges, named, recordAudit } from '../audit/index.js';
import { AppError, badInput, conflict, notFound, type ErrorText } from '../../core/errors.js';
import { hasChargedOrder } from '../orders/index.js';
import type { RateLimits, Taken } from '../limits/index.js';
import type { AutomaticDiscountService } from './automatic-discount.service.js';
import { DiscountCode } from './discount-code.entity.js';
import { better, bestAutomatic, codeAmount, eligibleLines, type AppliedDiscount, type Basket, type BasketLine, type Customer } from './discount-pricing.js';
import { cleanDiscountInput, NOT_APPLICABLE, ONE_CODE_AT_A_TIME, UNKNOWN_CODE, UNUSABLE_CODE, unusableReason } from './discount-rules.js';

export type { AppliedDiscount } from './discount-pricing.js';


const TAKEN = 'A discount code with this name already exists (codes ignore case).';
/** Where a request keeps the one code it tried (RequestContext.scope). */
const TRIED_CODE = 'discount.tried-code';

/**
 * Discount codes: the admin's list and edits, and the discount a cart gets: the best automatic
 * discount, or a code's when it takes more (a code does not add to an automatic discount). A code is
 * claimed in the checkout's transaction with its row locked (FOR UPDATE), so concurrent checkouts
 * racing for the last use get exactly one success; once per customer is a row per code and customer
 * whose unique index lets one of two racing checkouts through. Codes cannot be guessed at leisure:
 * every code tried that cannot be used costs the caller's address a point (kept in PostgreSQL), a
 * request may try one code, and an anonymous caller hears one message whatever the reason.
 */
export class DiscountService {
  constructor(
    private readonly clock: () => Date,
    private readonly limits: RateLimits,
    private readonly automatic: AutomaticDiscountService,
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
      const changes = describeChanges(before, discountSnapshot(code), { code: 'code', off: 'discount', startsAt: 'start', endsAt: 'end', maxUses: 'maximum uses', products: 'products', categories: 'categories', minSubtotal: 'minimum subtotal', oncePerCustomer: 'once per customer', firstOrderOnly: 'first order only' });
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

  /**
   * The discount a cart gets now, without using a code (the cart's quote): the best automatic one, or
   * the code's when it takes more. A code that cannot be used, or whose rules refuse the cart, is
   * refused (see refusal).
   */
  async price(ctx: RequestContext, rawCode: string | null, pricedBasket: Basket | Promise<Basket>): Promise<AppliedDiscount | null> {
    // The code's point and its row are read beside the running discounts and the cart being priced
    // (the caller may pass the basket still to come): one round trip to the database, not four.
    const [terms, lookUp, basket] = await Promise.all([
      this.automatic.running(ctx.em),
      rawCode ? Promise.all([this.attempt(ctx, rawCode), this.byCode(ctx.em, rawCode)]) : null,
      pricedBasket,
    ]);
    const automatic = bestAutomatic(terms, basket);
    if (!rawCode || !lookUp) return automatic;
    const [attempt, code] = lookUp;
    const reason = code ? unusableReason(code, this.clock()) : UNKNOWN_CODE;
    if (!code || reason) throw await this.refusal(ctx, reason!);
    const viewer = await ctx.viewer();
    const applied = await this.applyRules(ctx, code, basket, { userId: viewer?.user.id ?? null, email: null }, attempt);
    await attempt.giveBack();
    return better(applied, automatic);
  }

  /**
   * The discount of an order being placed, in its transaction: the best automatic one, or the code's
   * when it takes more, whose use is then counted (and, once per customer, the customer's use
   * written under its unique key; `orderId` is the order's, written later in the same transaction).
   * The code's row is locked until the transaction ends: concurrent checkouts of the code wait and
   * see the count and the uses the first one left.
   */
  async claim(tx: RequestContext, rawCode: string | null, basket: Basket, customer: Customer, orderId: string): Promise<AppliedDiscount | null> {
    const now = this.clock();
    const automatic = bestAutomatic(await this.automatic.running(tx.em, now), basket);
    if (!rawCode) return automatic;
    const code = await this.byCode(tx.em, rawCode, true);
    // Why: unknown, not yet, expired or used up (said to signed-in shoppers only).
    const reason = code ? unusableReason(code, now) : UNKNOWN_CODE;
    if (!code || reason) throw await this.refusal(tx, reason!);
    const applied = better(await this.applyRules(tx, code, basket, customer), automatic);
    if (applied?.kind !== 'code') return applied;
    await tx.em.execute(`update "discount_code" set "uses" = "uses" + 1, "updated_at" = now() where "id" = ?`, [code.id]);
    if (code.oncePerCustomer) {
      const keys = customerKeys(customer);
      // A checkout of the same customer that wrote its row first (committed or not) wins: this insert
      // waits for it and writes nothing when it committed.
      const written = await tx.em.execute<{ id: number }[]>(
        `insert into "discount_redemption" ("discount_code_id", "customer_key", "order_id")
         select ?, k, ?::uuid from unnest(?::text[]) as k
         on conflict ("discount_code_id", "customer_key") do nothing returning "id"`,
        [code.id, orderId, textArray(keys)],
      );
      if (written.length < keys.length) throw await this.notApplicable(tx, NOT_APPLICABLE.usedByCustomer);
    }
    return applied;
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
      // A code that exists but whose rules refuse the cart is no guess: a signed-in shopper who heard why gets the point back.
      if (!(error instanceof AppError && error.field === 'discountCode' && error.code !== 'DISCOUNT_NOT_APPLICABLE')) await attempt.giveBack();
      throw error;
    }
  }

  /** Gives an order's use of its code back (a payment that was declined or abandoned), and its customer's use. */
  async release(tx: RequestContext, order: { id: string; discountCode: string | null }): Promise<void> {
    if (order.discountCode) await tx.em.execute(`update "discount_code" set "uses" = "uses" - 1 where lower("code") = lower(?) and "uses" > 0`, [order.discountCode]);
    await tx.em.execute(`delete from "discount_redemption" where "order_id" = ?`, [order.id]);
  }

  /**
   * What a usable code takes off the cart under its rules: its products and categories, the
   * minimum subtotal, a first order only, once per customer. A rule that refuses the cart is
   * DISCOUNT_NOT_APPLICABLE with the reason (see notApplicable).
   */
  private async applyRules(ctx: RequestContext, code: DiscountCode, basket: Basket, customer: Customer, attempt?: Taken): Promise<AppliedDiscount> {
    const refuse = async (reason: ErrorText) => {
      const error = await this.notApplicable(ctx, reason);
      if (attempt && error.code === 'DISCOUNT_NOT_APPLICABLE') await attempt.giveBack();
      return error;
    };
    if (code.minSubtotal !== null && compareCents(basket.subtotal, code.minSubtotal) < 0) throw await refuse(NOT_APPLICABLE.minSubtotal(code.minSubtotal));
    const lines: BasketLine[] = eligibleLines(code, await this.categoriesOf(ctx.em, code.categoryIds), basket);
    if (!lines.length) throw await refuse(NOT_APPLICABLE.products);
    if (code.firstOrderOnly && (await hasChargedOrder(ctx.em, customer))) throw await refuse(NOT_APPLICABLE.firstOrder);
    const keys = customerKeys(customer);
    if (code.oncePerCustomer && keys.length) {
      const [row] = await ctx.em.execute<{ found: boolean }[]>(`select exists (select 1 from "discount_redemption" where "discount_code_id" = ? and "customer_key" = any(?::text[])) as "found"`, [code.id, textArray(keys)]);
      if (row?.found) throw await refuse(NOT_APPLICABLE.usedByCustomer);
    }
    return { kind: 'code', name: code.code, code: code.code, amount: codeAmount(code, lines) };
  }

  /** The categories a code names with every one below them. */
  private async categoriesOf(em: EntityManager, categoryIds: readonly number[]): Promise<Set<number>> {
    const all = new Set<number>();
    for (const id of categoryIds) for (const below of await subtreeIds(em, 'category', id)) all.add(below);
    return all;
  }

  /**
   * Takes the point a code's look-up costs the caller's address (given back when the code can be
   * used, so only codes that cannot be used count); one code per request, so that one operation (a
   * GraphQL document of many aliased fields) cannot try many. The same code again costs nothing more.
   */
  private async attempt(ctx: RequestContext, rawCode: string): Promise<Taken> {
    const tried = ctx.scope.get(TRIED_CODE) as string | undefined;
    if (tried !== undefined) {
      if (tried !== rawCode.toLowerCase()) throw badInput(ONE_CODE_AT_A_TIME, 'discountCode');
      return { giveBack: async () => {} };
    }
    ctx.scope.set(TRIED_CODE, rawCode.toLowerCase());
    return this.limits.take([this.limits.rules.discountCode, ctx.ip]);
  }

  /** Why a code cannot be used, as the caller may hear it: the reason for signed-in shoppers, one message for anyone else. */
  private async refusal(ctx: RequestContext, reason: ErrorText): Promise<AppError> {
    return badInput((await ctx.viewer()) ? reason : UNUSABLE_CODE, 'discountCode');
  }

  /** Why a usable code's rules refuse the cart: DISCOUNT_NOT_APPLICABLE with the reason for signed-in shoppers, the one message of refusal() for anyone else. */
  private async notApplicable(ctx: RequestContext, reason: ErrorText): Promise<AppError> {
    if (!(await ctx.viewer())) return badInput(UNUSABLE_CODE, 'discountCode');
    return new AppError('DISCOUNT_NOT_APPLICABLE', reason, { field: 'discountCode' });
  }

  private byCode(em: EntityManager, code: string, lock = false): Promise<DiscountCode | null> {
    const where = { code: { $ilike: code.replace(/[\\%_]/g, (c) => `\\${c}`) } };
    return lock ? em.findOne(DiscountCode, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : em.findOne(DiscountCode, where);
  }
}

/** "20% off" or "$5.00 off". */
const offOf = (code: Pick<DiscountCode, 'percentOff' | 'amountOff'>) => (code.percentOff !== null ? `${code.percentOff}% off` : `$${code.amountOff} off`);

/** What the audit log compares of a discount code. */
const discountSnapshot = (code: DiscountCode) => ({
  code: code.code,
  off: offOf(code),
  startsAt: code.startsAt,
  endsAt: code.endsAt,
  maxUses: code.maxUses,
  products: code.productIds.join(', '),
  categories: code.categoryIds.join(', '),
  minSubtotal: code.minSubtotal,
  oncePerCustomer: code.oncePerCustomer,
  firstOrderOnly: code.firstOrderOnly,
});

/** The keys a customer's use of a code is kept under: their account and their address. */
const customerKeys = (customer: Customer): string[] => [...(customer.userId !== null ? [`user:${customer.userId}`] : []), ...(customer.email ? [`email:${customer.email}`] : [])];

/** A PostgreSQL array literal of texts. */
const textArray = (values: readonly string[]) => `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

const compareCents = (a: string, b: string) => toCents(a) - toCents(b);
