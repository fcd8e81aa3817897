import { asc, eq, inArray, max, sql } from "drizzle-orm";
import { dialectOf, type Db } from "../db/client.ts";
import { notifyCouncil } from "../db/pg/council-channel.ts";
import { type CouncilMemberRow, type CouncilSettingsRow, councilMembers, councilSettings } from "../db/schema/index.ts";
import { first, one, transaction } from "../db/transaction.ts";

/**
 * The council's rows (docs/DECISIONS.md, "The council is data"): data access
 * only, the callers (admin API, CLI) validate what a user typed. Every write
 * bumps council_settings.version in its own transaction and, on PostgreSQL,
 * NOTIFies the other servers at commit; SQLite's servers and PostgreSQL's
 * safety net read the version (src/council/council-runtime.ts).
 */

/** What a new member sets; a key is given sealed (secret-box.ts `sealedKey`), never in clear. */
export type NewMember = Pick<CouncilMemberRow, "name" | "provider" | "model"> &
  Partial<
    Pick<
      CouncilMemberRow,
      "specialty" | "baseUrl" | "apiKeyEnc" | "apiKeyLast4" | "vision" | "priceInEur" | "priceOutEur" | "timeoutMs" | "enabled" | "synthesisRank" | "position"
    >
  >;

/** What an edit may change (not the builtin key, the id or the dates). */
export type MemberPatch = Partial<Omit<CouncilMemberRow, "id" | "builtinKey" | "createdAt" | "updatedAt">>;
export type SettingsPatch = Partial<Pick<CouncilSettingsRow, "clarifierMemberId" | "moderationModel" | "peerReview">>;

export class UnknownMemberError extends Error {
  constructor(readonly memberName: string) {
    super(`Membre du conseil inconnu : ${memberName}`);
  }
}

/** Every member, enabled or not, in display order. */
export async function listMembers(db: Db): Promise<CouncilMemberRow[]> {
  return await db.select().from(councilMembers).orderBy(asc(councilMembers.position), asc(councilMembers.id));
}

export async function findMember(db: Db, name: string): Promise<CouncilMemberRow | undefined> {
  return await first(db.select().from(councilMembers).where(eq(councilMembers.name, name)).limit(1));
}

/** The settings row (the migration creates it). */
export async function getSettings(db: Db): Promise<CouncilSettingsRow> {
  const row = await first(db.select().from(councilSettings).where(eq(councilSettings.id, 1)));
  if (!row) throw new Error("council_settings vide : la base n'est pas migrée");
  return row;
}

/** The cheap read a server makes every few seconds to know whether its snapshot is still the council's. */
export async function councilVersion(db: Db): Promise<number> {
  const row = await first(db.select({ version: councilSettings.version }).from(councilSettings).where(eq(councilSettings.id, 1)));
  return row?.version ?? 0;
}

/** A new member, last in display order unless `position` says otherwise. Throws on a name already taken (unique index). */
export async function addMember(db: Db, input: NewMember, now: Date): Promise<CouncilMemberRow> {
  return await changing(db, async (tx) => {
    const last = await first(tx.select({ position: max(councilMembers.position) }).from(councilMembers));
    return await one(
      tx
        .insert(councilMembers)
        .values({
          specialty: "",
          vision: false,
          enabled: true,
          position: (last?.position ?? 0) + 1,
          ...input,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
  });
}

/** The edited member, or undefined when no member has that name. */
export async function updateMember(db: Db, name: string, patch: MemberPatch, now: Date): Promise<CouncilMemberRow | undefined> {
  return await changing(db, async (tx) => {
    const [row] = await tx
      .update(councilMembers)
      .set({ ...patch, updatedAt: now })
      .where(eq(councilMembers.name, name))
      .returning();
    return row;
  });
}

export async function setEnabled(db: Db, name: string, on: boolean, now: Date): Promise<CouncilMemberRow | undefined> {
  return await updateMember(db, name, { enabled: on }, now);
}

/** The synthesisers, in order (the first writes the synthesis); every other member stops being one. */
export async function setSynthesisers(db: Db, names: readonly string[], now: Date): Promise<void> {
  await changing(db, async (tx) => {
    const found = await tx
      .select({ name: councilMembers.name })
      .from(councilMembers)
      .where(inArray(councilMembers.name, [...names]));
    const missing = names.find((n) => !found.some((f) => f.name === n));
    if (missing !== undefined) throw new UnknownMemberError(missing);
    await tx.update(councilMembers).set({ synthesisRank: null, updatedAt: now });
    for (const [i, name] of names.entries()) {
      await tx
        .update(councilMembers)
        .set({ synthesisRank: i + 1 })
        .where(eq(councilMembers.name, name));
    }
  });
}

export async function updateSettings(db: Db, patch: SettingsPatch): Promise<CouncilSettingsRow> {
  await changing(db, async (tx) => {
    if (Object.keys(patch).length > 0) await tx.update(councilSettings).set(patch).where(eq(councilSettings.id, 1));
  });
  return await getSettings(db);
}

/** Runs a write and bumps the version in the same transaction; PostgreSQL's servers hear of it at commit. */
async function changing<T>(db: Db, write: (tx: Db) => Promise<T>): Promise<T> {
  return await transaction(db, async (tx) => {
    const result = await write(tx);
    const bumped = await one(
      tx
        .update(councilSettings)
        .set({ version: sql`${councilSettings.version} + 1` })
        .where(eq(councilSettings.id, 1))
        .returning({ version: councilSettings.version }),
    );
    if (dialectOf(tx) === "postgres") await notifyCouncil(tx, bumped.version);
    return result;
  });
}
