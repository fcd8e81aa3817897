import { and, isNotNull, lt, or, sql } from "drizzle-orm";
import { authFailures, mailOutbox, passwordResetTokens, rememberedDevices, sessions, twoFactorCodes } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { DAY } from "../lib/clock.ts";
import type { Job } from "./job.ts";
import { deleteUnsentBefore } from "../attachments/attachments.queries.ts";

/**
 * Forgets dead credentials: expired or revoked sessions, devices, codes and
 * reset links past a grace week; and mails older than a week (mail_outbox
 * keeps codes and links in clear without SMTP: docs/SECURITY.md); and
 * uploads never sent with a message within 24 hours (issue 33).
 */
export async function cleanupExpired({ db, clock }: Deps) {
  const cutoff = new Date(clock.now().getTime() - 7 * DAY);
  const removed = {
    sessions: (
      await db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, cutoff), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, cutoff))))
        .returning({ n: sql`1` })
    ).length,
    devices: (await db.delete(rememberedDevices).where(lt(rememberedDevices.expiresAt, cutoff)).returning({ n: sql`1` })).length,
    codes: (await db.delete(twoFactorCodes).where(lt(twoFactorCodes.expiresAt, cutoff)).returning({ n: sql`1` })).length,
    resetTokens: (await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, cutoff)).returning({ n: sql`1` })).length,
    mails: (await db.delete(mailOutbox).where(lt(mailOutbox.createdAt, cutoff)).returning({ n: sql`1` })).length,
    failures: (await db.delete(authFailures).where(lt(authFailures.createdAt, cutoff)).returning({ n: sql`1` })).length,
    attachments: await deleteUnsentBefore(db, new Date(clock.now().getTime() - DAY)),
  };
  return removed;
}

export const cleanupJob: Job = { name: "cleanup", everyMs: 60 * 60_000, runAtStart: true, run: cleanupExpired };
