import { first, one } from "../db/transaction.ts";
import { frDetails } from "../i18n/fr-details.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import { randomInt } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { promoCodes, referrals, type UserRow, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { effectivePlan } from "../users/quota.ts";
import { REFERRAL_BONUS } from "../contracts/pricing.ts";
import { stripeCall } from "./stripe-client.ts";
import { frAnswers } from "../i18n/fr-answers.ts";

export type PromoRow = typeof promoCodes.$inferSelect;
const PROMO_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

/** Codes are compared upper-cased and trimmed, whatever the user typed. */
function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export type CreatePromoInput = { code: string; percentOff: number; maxUses?: number | null; expiresAt?: Date | null };

/**
 * An operator promo code (CLI, admin). With Stripe configured the matching
 * coupon is created first (percent off, first payment only), so a code that
 * exists here always exists at Stripe too.
 */
export async function createPromoCode(deps: Deps, input: CreatePromoInput): Promise<PromoRow> {
  const { db, clock, stripe, log } = deps;
  const code = normalizeCode(input.code);
  const now = clock.now();
  if (!PROMO_CODE_PATTERN.test(code)) {
    throw new AppError("PROMO_INVALID", frDetails.promo.codeFormat);
  }
  if (!Number.isInteger(input.percentOff) || input.percentOff < 1 || input.percentOff > 100) {
    throw new AppError("PROMO_INVALID", frDetails.promo.percent);
  }
  if (input.maxUses != null && (!Number.isInteger(input.maxUses) || input.maxUses < 1)) {
    throw new AppError("PROMO_INVALID", frDetails.promo.maxUses);
  }
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw new AppError("PROMO_INVALID", frDetails.promo.expiresInPast);
  }
  if ((await findPromo(db, code)) || (await first(db.select({ id: users.id }).from(users).where(eq(users.referralCode, code))))) {
    throw new AppError("PROMO_CODE_TAKEN");
  }
  let stripeCouponId: string | null = null;
  if (stripe) {
    const coupon = await stripeCall(log, "coupons.create", () =>
      stripe.coupons.create({
        percent_off: input.percentOff,
        duration: "once",
        name: code,
        ...(input.maxUses ? { max_redemptions: input.maxUses } : {}),
        ...(input.expiresAt ? { redeem_by: Math.floor(input.expiresAt.getTime() / 1000) } : {}),
        metadata: { promo_code: code },
      }),
    );
    stripeCouponId = coupon.id;
  }
  try {
    return await one(
      db
        .insert(promoCodes)
        .values({ code, percentOff: input.percentOff, maxUses: input.maxUses ?? null, expiresAt: input.expiresAt ?? null, stripeCouponId, createdAt: now })
        .returning(),
    );
  } catch (e) {
    if (String(e).includes("UNIQUE")) throw new AppError("PROMO_CODE_TAKEN");
    throw e;
  }
}

export async function listPromoCodes(db: Db): Promise<PromoRow[]> {
  return await db.select().from(promoCodes).orderBy(promoCodes.createdAt);
}

async function findPromo(db: Db, code: string): Promise<PromoRow | undefined> {
  return await first(
    db
      .select()
      .from(promoCodes)
      .where(eq(promoCodes.code, normalizeCode(code))),
  );
}

export type ResolvedPromo =
  | { kind: "referral"; code: string; referrerId: number; message: string }
  | { kind: "coupon"; code: string; percentOff: number; stripeCouponId: string | null; message: string };

/**
 * What a code entered in the promo field means for `user`: a Pro user's
 * referral code (never one's own, once per referee) or an operator promo code
 * within its uses and dates. Throws PROMO_INVALID with the French reason.
 */
export async function resolvePromo(db: Db, now: Date, user: UserRow, raw: string): Promise<ResolvedPromo> {
  const code = normalizeCode(raw);
  if (!code) throw new AppError("PROMO_INVALID", frDetails.promo.empty);
  const referrer = await first(db.select().from(users).where(eq(users.referralCode, code)));
  if (referrer) {
    if (referrer.id === user.id) throw new AppError("PROMO_INVALID", frDetails.promo.ownReferral);
    if (effectivePlan(referrer, now) !== "pro") throw new AppError("PROMO_INVALID", frDetails.promo.referralInactive);
    if (await first(db.select({ id: referrals.id }).from(referrals).where(eq(referrals.refereeId, user.id)))) {
      throw new AppError("PROMO_INVALID", frDetails.promo.referralUsed);
    }
    return {
      kind: "referral",
      code,
      referrerId: referrer.id,
      message: frBilling.user.referralValid(REFERRAL_BONUS),
    };
  }
  const promo = await findPromo(db, code);
  if (!promo) throw new AppError("PROMO_INVALID", frDetails.promo.unknown);
  if (promo.expiresAt && promo.expiresAt.getTime() <= now.getTime()) throw new AppError("PROMO_INVALID", frDetails.promo.expired);
  if (promo.maxUses != null && promo.uses >= promo.maxUses) throw new AppError("PROMO_INVALID", frDetails.promo.usedUp);
  return {
    kind: "coupon",
    code,
    percentOff: promo.percentOff,
    stripeCouponId: promo.stripeCouponId,
    message: frAnswers.couponValid(promo.percentOff),
  };
}

/** Unambiguous letters and digits: a code read aloud or copied by hand still works. */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function candidateCode(firstName: string): string {
  const prefix =
    firstName
      .normalize("NFD")
      .replace(/[^A-Za-z]/g, "")
      .toUpperCase()
      .slice(0, 6) || "UNISSON";
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${prefix}-${suffix}`;
}

/** A Pro user's personal referral code, made on first need; unique, upper case, never equal to a promo code. */
export async function ensureReferralCode(db: Db, now: Date, user: UserRow): Promise<string> {
  if (user.referralCode) return user.referralCode;
  for (let attempt = 0; attempt < 10; attempt++) {
    const code = candidateCode(user.firstName);
    if (await findPromo(db, code)) continue;
    try {
      // Only where none is set yet: two first calls at once keep one code.
      await db
        .update(users)
        .set({ referralCode: code, updatedAt: now })
        .where(and(eq(users.id, user.id), isNull(users.referralCode)));
      const stored = (await first(db.select({ code: users.referralCode }).from(users).where(eq(users.id, user.id))))?.code;
      if (stored) return stored;
    } catch (e) {
      if (!String(e).includes("UNIQUE")) throw e;
    }
  }
  throw new AppError("INTERNAL");
}

export async function successfulReferrals(db: Db, userId: number): Promise<number> {
  return (await first(db.select({ n: count() }).from(referrals).where(eq(referrals.referrerId, userId))))?.n ?? 0;
}
