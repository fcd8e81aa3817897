import type { Availability } from "../ai/availability.ts";
import { byPriority, type ModelDef } from "../ai/registry.ts";
import type { Config } from "../config.ts";
import { type Db, dialectOf } from "../db/client.ts";
import { listenCouncil } from "../db/pg/council-channel.ts";
import type { CouncilMemberRow } from "../db/schema/index.ts";
import { DEFAULT_MODERATION_MODEL } from "../contracts/moderation.ts";
import { councilVersion, getSettings, listMembers } from "./council.store.ts";
import { createClientCache } from "./member-clients.ts";
import { resolveMember } from "./resolve-member.ts";
import { loadSecretKey, openStoredKey, type SecretKey } from "./secret-box.ts";

/** What a run takes once, at its start, and keeps to its end (a change of the council applies to the next run). */
export type Council = {
  version: number;
  /** The enabled members, in display order. */
  members: readonly ModelDef[];
  /** The enabled synthesisers, first writer first. */
  synthesisers: readonly ModelDef[];
  /** The member asked first for clarifying questions (null: none enabled). */
  clarifier: ModelDef | null;
  peerReview: boolean;
  moderationModel: string;
};

/** The model list and the status read the council again at most this often on SQLite (a one-row read); runs always check. */
const SHOWN_CHECK_MS = 1_000;
/** PostgreSQL's safety net behind NOTIFY, for a notification lost while the LISTEN connection reconnects. */
const PG_SAFETY_CHECK_MS = 5_000;

/**
 * The council of one server process (docs/DECISIONS.md, "The council is
 * data"): the last snapshot read, and when it was checked. A run checks the
 * stored version before it starts (one primary-key read) and reloads on a
 * change; the public model list and status reuse the snapshot for up to a
 * second on SQLite, and on PostgreSQL until a NOTIFY of the council channel
 * (or 5 s at most). Several servers thus apply a change to their next
 * question within 5 s, a run in progress never.
 */
export type CouncilRuntime = {
  readonly config: Config;
  readonly db: Db;
  readonly availability: Availability;
  readonly clientFor: ReturnType<typeof createClientCache>;
  snapshot: Council | null;
  checkedAt: number;
  stale: boolean;
  loading: Promise<Council> | null;
  listening: boolean;
  secretKey: SecretKey | null;
};

export function createCouncilRuntime(config: Config, db: Db, availability: Availability, sdkTimeoutMs: number): CouncilRuntime {
  return {
    config,
    db,
    availability,
    clientFor: createClientCache(sdkTimeoutMs),
    snapshot: null,
    checkedAt: Number.NEGATIVE_INFINITY,
    stale: true,
    loading: null,
    listening: false,
    secretKey: null,
  };
}

/** The council a run starts with: the stored one, checked now. */
export async function currentCouncil(deps: { ai: { council: CouncilRuntime } }): Promise<Council> {
  return await refreshed(deps.ai.council, 0);
}

/** The council the model list, the status and /v1/models show: at most a second old (SQLite), or as NOTIFY last said (PostgreSQL). */
export async function shownCouncil(deps: { ai: { council: CouncilRuntime } }): Promise<Council> {
  const rt = deps.ai.council;
  try {
    return await refreshed(rt, dialectOf(rt.db) === "postgres" && rt.listening ? PG_SAFETY_CHECK_MS : SHOWN_CHECK_MS);
  } catch (e) {
    // The database unreachable for a moment: the status still answers from the last council read (no question can start meanwhile).
    if (rt.snapshot) return rt.snapshot;
    throw e;
  }
}

async function refreshed(rt: CouncilRuntime, maxAgeMs: number): Promise<Council> {
  listen(rt);
  if (rt.snapshot && !rt.stale && performance.now() - rt.checkedAt < maxAgeMs) return rt.snapshot;
  // A question reads the version itself: a read already under way may have started before the change it must see.
  if (maxAgeMs === 0) return await check(rt);
  // The status and the model list share one read.
  rt.loading ??= check(rt).finally(() => {
    rt.loading = null;
  });
  return await rt.loading;
}

async function check(rt: CouncilRuntime): Promise<Council> {
  rt.stale = false;
  const version = await councilVersion(rt.db);
  rt.checkedAt = performance.now();
  if (rt.snapshot?.version === version) return rt.snapshot;
  // The version before the rows: rows newer than their version only cause one more reload, never a council kept stale.
  const settings = await getSettings(rt.db);
  const rows = await listMembers(rt.db);
  const members = rows.map((row) => toModel(rt, row));
  rt.availability.sync(
    members.map((m) => ({
      key: m.key,
      configured: m.client !== null,
      keyUnusable: m.keyProblem !== null,
      signature: JSON.stringify([m.provider, m.modelId, m.client !== null, m.clientSpec, m.keyProblem]),
    })),
  );
  const enabled = members.filter((m) => m.enabled).map(({ enabled: _e, clientSpec: _c, baseUrl: _b, keyProblem: _k, ...m }) => m);
  const council: Council = {
    version: settings.version,
    members: enabled,
    synthesisers: byPriority(enabled),
    clarifier: enabled.find((m) => m.memberId === settings.clarifierMemberId) ?? enabled[0] ?? null,
    peerReview: settings.peerReview,
    moderationModel: settings.moderationModel ?? DEFAULT_MODERATION_MODEL,
  };
  // Two questions may reload at once: the newer council stays.
  if (!rt.snapshot || council.version >= rt.snapshot.version) rt.snapshot = council;
  return council;
}

function toModel(rt: CouncilRuntime, row: CouncilMemberRow) {
  const resolved = resolveMember(
    row,
    rt.config,
    openStoredKey(() => (rt.secretKey ??= loadSecretKey(rt.config)), row.apiKeyEnc),
  );
  return { ...resolved, client: resolved.modelId && resolved.clientSpec ? rt.clientFor(resolved.clientSpec) : null };
}

/** On PostgreSQL, one LISTEN per process marks the snapshot stale when any server changes the council. */
function listen(rt: CouncilRuntime): void {
  if (rt.listening || dialectOf(rt.db) !== "postgres") return;
  rt.listening = true;
  const markStale = () => {
    rt.stale = true;
  };
  listenCouncil(rt.db, markStale, markStale).catch(() => {
    // Not listening (the database is down): the next read tries again; meanwhile the status checks every second.
    rt.listening = false;
  });
}
