import type { Db } from "../db/client.ts";
import { endCodes, revokeDevices, useResetTokens } from "./auth.queries.ts";
import { revokeAllSessions } from "./sessions.ts";

/**
 * After a change of who the account is or what it may do (admin granted or
 * removed, e-mail or password changed, password reset): every session,
 * remembered device, two-factor code and reset link of the account ends, so
 * a session opened before the change can neither keep old rights nor gain
 * new ones without signing in again (docs/SECURITY.md, "Privilege changes").
 * `keepSessionId` spares the session that made the change on its own account.
 */
export async function revokeCredentials(db: Db, userId: number, now: Date, keepSessionId?: number): Promise<void> {
  await revokeAllSessions(db, userId, now, keepSessionId);
  await revokeDevices(db, userId, now);
  await endCodes(db, userId, now);
  await useResetTokens(db, userId, now);
}
