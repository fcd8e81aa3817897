import { and, desc, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { passwordResetTokens, rememberedDevices, twoFactorCodes, users } from "../db/schema/index.ts";

/** Queries of the auth domain: two-factor codes, remembered devices, reset links. */

export type CodeRow = typeof twoFactorCodes.$inferSelect;

export function latestCode(db: Db, userId: number): CodeRow | undefined {
  return db.select().from(twoFactorCodes).where(eq(twoFactorCodes.userId, userId)).orderBy(desc(twoFactorCodes.createdAt), desc(twoFactorCodes.id)).get();
}

export function liveCodes(db: Db, userId: number, now: Date): CodeRow[] {
  return db
    .select()
    .from(twoFactorCodes)
    .where(and(eq(twoFactorCodes.userId, userId), isNull(twoFactorCodes.endedAt), gt(twoFactorCodes.expiresAt, now)))
    .all();
}

export function insertCode(db: Db, values: typeof twoFactorCodes.$inferInsert): CodeRow {
  return db.insert(twoFactorCodes).values(values).returning().get();
}

export function deleteCode(db: Db, id: number): void {
  db.delete(twoFactorCodes).where(eq(twoFactorCodes.id, id)).run();
}

/** Ends every live code of the user except `keepId` (a new code kills the old ones). */
export function endCodes(db: Db, userId: number, now: Date, keepId?: number): void {
  const conds = [eq(twoFactorCodes.userId, userId), isNull(twoFactorCodes.endedAt)];
  if (keepId !== undefined) conds.push(ne(twoFactorCodes.id, keepId));
  db.update(twoFactorCodes)
    .set({ endedAt: now })
    .where(and(...conds))
    .run();
}

export function setCodeAttempts(db: Db, id: number, failedAttempts: number, endedAt: Date | null): void {
  db.update(twoFactorCodes).set({ failedAttempts, endedAt }).where(eq(twoFactorCodes.id, id)).run();
}

export function insertDevice(db: Db, values: typeof rememberedDevices.$inferInsert): void {
  db.insert(rememberedDevices).values(values).run();
}

export function findLiveDevice(db: Db, userId: number, tokenHash: string, now: Date) {
  return db
    .select({ id: rememberedDevices.id })
    .from(rememberedDevices)
    .where(
      and(
        eq(rememberedDevices.userId, userId),
        eq(rememberedDevices.tokenHash, tokenHash),
        isNull(rememberedDevices.revokedAt),
        gt(rememberedDevices.expiresAt, now),
      ),
    )
    .get();
}

export function revokeDevices(db: Db, userId: number, now: Date): void {
  db.update(rememberedDevices)
    .set({ revokedAt: now })
    .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)))
    .run();
}

export function insertResetToken(db: Db, values: typeof passwordResetTokens.$inferInsert): void {
  db.insert(passwordResetTokens).values(values).run();
}

/** A reset link that is unused and unexpired, with its account's e-mail. */
export function findLiveResetToken(db: Db, tokenHash: string, now: Date) {
  return db
    .select({ id: passwordResetTokens.id, userId: passwordResetTokens.userId, expiresAt: passwordResetTokens.expiresAt, email: users.email })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
    .get();
}

/** Uses up every open reset link of the user: one reset ends them all. */
export function useResetTokens(db: Db, userId: number, now: Date): void {
  db.update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
    .run();
}
