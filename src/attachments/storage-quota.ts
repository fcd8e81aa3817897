import { eq, sum } from "drizzle-orm";
import { PLAN_NAMES } from "../contracts/pricing.ts";
import type { Db } from "../db/client.ts";
import { attachments, type UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";

const MB = 1024 * 1024;

// Module state: the bytes of files this process is reading right now, by user (the database counts only what is stored).
const pending = new Map<number, number>();

/** Bytes of attachments the user stores (each file's original size: its text, when it has one apart, is a fraction of it). */
export async function storedBytes(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ bytes: sum(attachments.size).mapWith(Number) })
    .from(attachments)
    .where(eq(attachments.userId, userId));
  return row?.bytes ?? 0;
}

/** The user's quota in bytes, by plan (ATTACHMENT_QUOTA_MB_<PLAN>; an expired plan keeps the trial's). */
export function quotaBytes(deps: Deps, user: Pick<UserRow, "subscriptionType">): number {
  return deps.config.attachments.quotaMbByPlan[user.subscriptionType] * MB;
}

/** What GET /api/attachment-storage answers and the account dialog shows. */
export async function storageOf(deps: Deps, user: Pick<UserRow, "id" | "subscriptionType">) {
  const used = (await storedBytes(deps.db, user.id)) + (pending.get(user.id) ?? 0);
  return { used_bytes: used, quota_bytes: quotaBytes(deps, user), quota_mb: deps.config.attachments.quotaMbByPlan[user.subscriptionType] };
}

function megabytes(bytes: number): string {
  return (bytes / MB).toLocaleString("fr-FR", { maximumFractionDigits: 1 });
}

/**
 * Runs `store` for a file of `size` bytes only when it fits the user's quota,
 * stored plus pending (files of the same user being read at this moment on
 * this server, so that parallel uploads cannot all pass the same check);
 * else the French 413 that names the quota.
 */
export async function withinQuota<T>(deps: Deps, user: Pick<UserRow, "id" | "subscriptionType">, size: number, store: () => Promise<T>): Promise<T> {
  const quota = quotaBytes(deps, user);
  const inFlight = pending.get(user.id) ?? 0;
  pending.set(user.id, inFlight + size);
  try {
    const used = (await storedBytes(deps.db, user.id)) + inFlight;
    if (used + size > quota) {
      const message = `Espace des pièces jointes plein : ${megabytes(quota)} Mo au plus avec le forfait ${PLAN_NAMES[user.subscriptionType]}, ${megabytes(used)} Mo déjà utilisés. Supprimez des conversations qui ont des fichiers, ou choisissez un forfait supérieur.`;
      throw new AppError("ATTACHMENT_QUOTA", message, {}, { error: message });
    }
    return await store();
  } finally {
    const left = (pending.get(user.id) ?? size) - size;
    if (left > 0) pending.set(user.id, left);
    else pending.delete(user.id);
  }
}
