import { first, one } from "../db/transaction.ts";
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { passwordResetTokens, rememberedDevices, twoFactorCodes, users } from "../db/schema/index.ts";

/** Queries of the auth domain: two-factor codes, remembered devices, reset links. */

export type CodeRow = typeof twoFactorCodes.$inferSelect;

export async function liveCodes(db: Db, userId: number, now: Date): Promise<CodeRow[]> {
  return await db
    .select()
    .from(twoFactorCodes)
    .where(and(eq(twoFactorCodes.userId, userId), isNull(twoFactorCodes.endedAt), gt(twoFactorCodes.expiresAt, now)));
}

export async function insertCode(db: Db, values: typeof twoFactorCodes.$inferInsert): Promise<CodeRow> {
  return await one(db.insert(twoFactorCodes).values(values).returning());
}

export async function deleteCode(db: Db, id: number): Promise<void> {
  await db.delete(twoFactorCodes).where(eq(twoFactorCodes.id, id));
}

/** Ends every live code of the user except `keepId` (a new code kills the old ones). */
export async function endCodes(db: Db, userId: number, now: Date, keepId?: number): Promise<void> {
  const conds = [eq(twoFactorCodes.userId, userId), isNull(twoFactorCodes.endedAt)];
  if (keepId !== undefined) conds.push(ne(twoFactorCodes.id, keepId));
  await db
    .update(twoFactorCodes)
    .set({ endedAt: now })
    .where(and(...conds));
}

export async function setCodeAttempts(db: Db, id: number, failedAttempts: number, endedAt: Date | null): Promise<void> {
  await db.update(twoFactorCodes).set({ failedAttempts, endedAt }).where(eq(twoFactorCodes.id, id));
}

export async function insertDevice(db: Db, values: typeof rememberedDevices.$inferInsert): Promise<void> {
  await db.insert(rememberedDevices).values(values);
}

export async function findLiveDevice(db: Db, userId: number, tokenHash: string, now: Date) {
  return await first(
    db
      .select({ id: rememberedDevices.id })
      .from(rememberedDevices)
      .where(
        and(
          eq(rememberedDevices.userId, userId),
          eq(rememberedDevices.tokenHash, tokenHash),
          isNull(rememberedDevices.revokedAt),
          gt(rememberedDevices.expiresAt, now),
        ),
      ),
  );
}

export async function revokeDevices(db: Db, userId: number, now: Date): Promise<void> {
  await db
    .update(rememberedDevices)
    .set({ revokedAt: now })
    .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
}

export async function insertResetToken(db: Db, values: typeof passwordResetTokens.$inferInsert): Promise<void> {
  await db.insert(passwordResetTokens).values(values);
}

/** A reset link that is unused and unexpired, with its account's e-mail. */
export async function findLiveResetToken(db: Db, tokenHash: string, now: Date) {
  return await first(
    db
      .select({ id: passwordResetTokens.id, userId: passwordResetTokens.userId, expiresAt: passwordResetTokens.expiresAt, email: users.email })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.userId))
      .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now))),
  );
}

/** Uses up every open reset link of the user: one reset ends them all. */
export async function useResetTokens(db: Db, userId: number, now: Date): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
