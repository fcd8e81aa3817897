import { and, isNotNull, lt, or, sql } from "drizzle-orm";
import { authFailures, mailOutbox, passwordResetTokens, rememberedDevices, sessions, twoFactorCodes } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { DAY, MINUTE } from "../lib/clock.ts";
import type { Job } from "./job.ts";
import { deleteUnreadBefore } from "../attachments/attachments.queries.ts";

/** Age past which a file no run read is deleted: with the job every 10 minutes, none lives past the hour (docs/SECURITY.md). */
const UNREAD_FILE_MINUTES = 50;

/**
 * Forgets dead credentials: expired or revoked sessions, devices, codes and
 * reset links past a grace week; and mails older than a week (mail_outbox
 * keeps codes and links in clear without SMTP: docs/SECURITY.md); and
 * files no run read within the hour: uploads never sent, questions never
 * processed (issue 44: they cost their sender nothing).
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
    attachments: await deleteUnreadBefore(db, new Date(clock.now().getTime() - UNREAD_FILE_MINUTES * MINUTE)),
  };
  return removed;
}

// Every 10 minutes for the files (the rest is a few indexed deletes that find nothing most of the time).
export const cleanupJob: Job = { name: "cleanup", everyMs: 10 * 60_000, runAtStart: true, run: cleanupExpired };
