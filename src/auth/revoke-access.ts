import type { Db } from "../db/client.ts";
import { revokeAllApiKeys } from "./api-keys.ts";
import { endCodes, revokeDevices, useResetTokens } from "./auth.queries.ts";
import { revokeAllSessions } from "./sessions.ts";

/**
 * After a change of who the account is or what it may do (admin granted or
 * removed, e-mail or password changed, password reset): every session,
 * remembered device, two-factor code, reset link and personal API key of the
 * account ends, so neither a session nor a key made before the change can
 * keep old rights or gain new ones: a key never outlives the password it was
 * made under (docs/SECURITY.md, "Privilege changes").
 * `keepSessionId` spares the session that made the change on its own account.
 */
export async function revokeCredentials(db: Db, userId: number, now: Date, keepSessionId?: number): Promise<void> {
  await revokeAllSessions(db, userId, now, keepSessionId);
  await revokeDevices(db, userId, now);
  await endCodes(db, userId, now);
  await useResetTokens(db, userId, now);
  await revokeAllApiKeys(db, userId, now);
}
