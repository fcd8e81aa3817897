import { getSettings, listMembers, addMember as storeAdd, setSynthesisers, updateMember as storeUpdate, updateSettings } from "../council/council.store.ts";
import { sealedKey } from "../council/secret-box.ts";
import type { CouncilMemberRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { type AuditAction, recordAudit } from "./audit-log.ts";
import { checkCouncil, checkSynthesisers, memberOrFail, refuseTakenName } from "./council-rules.ts";
import { COUNCIL_TEXTS, type CouncilSettingsPatch, type MemberAdd, type MemberPatch, needsBaseUrl } from "./council.schemas.ts";
import { lastProbes } from "./council-status.ts";
import { type CouncilMemberView, type CouncilView, NO_STATUS } from "./council.view.ts";
import { councilSecretKey, memberForPanel } from "./council-effective.ts";

/**
 * The council as an operator changes it, from the « Modèles » panel and from
 * `unisson council`: validated input in (council.schemas.ts), the rules that
 * need the whole council checked against what the change would leave
 * (council-rules.ts), written through the store (which bumps the version:
 * every server's next question uses it), each change in the audit log with
 * its actor. Keys are sealed before they reach the store and only their last
 * 4 characters ever come back.
 */

function toView(deps: Deps, row: CouncilMemberRow, probed = NO_STATUS): CouncilMemberView {
  const { resolved: m, maskedKey, keySource } = memberForPanel(deps.config, row);
  // A member that is never called shows why instead of an older probe's result.
  const status = m.keyProblem === null ? probed : { ...NO_STATUS, ok: false, error: m.keyProblem };
  return {
    name: row.name,
    specialty: row.specialty,
    provider: row.provider,
    model: m.modelId,
    base_url: m.baseUrl ?? null,
    enabled: row.enabled,
    vision: row.vision,
    price_in: m.price.inEur,
    price_out: m.price.outEur,
    timeout_ms: m.timeoutMs,
    synthesis_rank: row.synthesisRank,
    api_key: maskedKey,
    api_key_source: keySource,
    status,
  };
}

export async function councilOverview(deps: Deps): Promise<CouncilView> {
  const [rows, settings] = await Promise.all([listMembers(deps.db), getSettings(deps.db)]);
  // Calls are logged under the name users see (a seeded name pointed at another model shows its model id).
  const shown = new Map(rows.map((r) => [r.id, memberForPanel(deps.config, r).resolved.name]));
  const status = await lastProbes(deps.db, [...shown.values()]);
  const synthesisers = rows.filter((r) => r.synthesisRank !== null).sort((a, b) => a.synthesisRank! - b.synthesisRank!);
  return {
    members: rows.map((r) => toView(deps, r, status.get(shown.get(r.id)!))),
    settings: {
      peer_review: settings.peerReview,
      clarifier: rows.find((r) => r.id === settings.clarifierMemberId)?.name ?? null,
      moderation_model: settings.moderationModel,
      synthesisers: synthesisers.map((r) => r.name),
    },
  };
}

/** What the audit shows of a member: its view without the status (the key already masked). */
function audited(v: CouncilMemberView): Record<string, unknown> {
  const { status: _status, ...rest } = v;
  return rest;
}

function diff(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const k of Object.keys(after)) if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = [before[k] ?? null, after[k] ?? null];
  return out;
}

async function audit(deps: Deps, actor: string, action: AuditAction, target: string | null, changes: Record<string, unknown>) {
  await recordAudit(deps.db, { at: deps.clock.now(), actor, action, targetEmail: target, changes });
}

/** The columns an input sets: a typed key sealed, null clearing it; fields left out are left as they are. */
function columns(deps: Deps, input: MemberPatch): Partial<CouncilMemberRow> {
  const set: Partial<CouncilMemberRow> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.specialty !== undefined) set.specialty = input.specialty;
  if (input.provider !== undefined) set.provider = input.provider;
  if (input.model !== undefined) set.model = input.model;
  if (input.base_url !== undefined) set.baseUrl = input.base_url;
  if (input.vision !== undefined) set.vision = input.vision;
  if (input.price_in !== undefined) set.priceInEur = input.price_in;
  if (input.price_out !== undefined) set.priceOutEur = input.price_out;
  if (input.timeout_ms !== undefined) set.timeoutMs = input.timeout_ms;
  if (input.enabled !== undefined) set.enabled = input.enabled;
  if (input.api_key === null) Object.assign(set, { apiKeyEnc: null, apiKeyLast4: null });
  else if (input.api_key !== undefined) Object.assign(set, sealedKey(councilSecretKey(deps.config), input.api_key));
  return set;
}

/** A unique-index refusal that raced past the check (two admins adding the same name at once) is the same 409. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (/unique|duplicate/i.test(String((e as Error)?.message ?? e))) throw new AppError("COUNCIL_NAME_TAKEN", COUNCIL_TEXTS.nameTaken(name));
    throw e;
  }
}

export async function addCouncilMember(deps: Deps, input: MemberAdd, actor: string): Promise<CouncilMemberView> {
  const members = await listMembers(deps.db);
  refuseTakenName(members, input.name);
  checkCouncil([...members, { name: input.name, enabled: input.enabled ?? true, synthesisRank: null }]);
  const row = await uniqueName(input.name, async () => {
    const cols = columns(deps, input);
    return await storeAdd(deps.db, { ...cols, name: input.name, provider: input.provider, model: input.model }, deps.clock.now());
  });
  const view = toView(deps, row);
  await audit(deps, actor, "council.add", row.name, audited(view));
  return view;
}

export async function updateCouncilMember(deps: Deps, name: string, patch: MemberPatch, actor: string): Promise<CouncilMemberView & { key_cleared: boolean }> {
  const members = await listMembers(deps.db);
  const before = memberOrFail(members, name);
  if (patch.name !== undefined) refuseTakenName(members, patch.name, before.name);
  const provider = patch.provider ?? before.provider;
  const baseUrl = patch.base_url !== undefined ? patch.base_url : before.baseUrl;
  if (needsBaseUrl({ provider, base_url: baseUrl })) throw new AppError("VALIDATION", COUNCIL_TEXTS.baseUrlRequired);
  const enabled = patch.enabled ?? before.enabled;
  checkCouncil(
    members.map((m) => (m.id === before.id ? { ...m, enabled } : m)),
    before.name,
  );
  // A key typed for one address is never sent to another (issue 44): a new base URL drops it unless the same change gives one.
  const keyCleared = baseUrl !== before.baseUrl && patch.api_key === undefined && before.apiKeyEnc !== null;
  const set = { ...columns(deps, patch), ...(keyCleared && { apiKeyEnc: null, apiKeyLast4: null }) };
  const row = await uniqueName(patch.name ?? before.name, async () => await storeUpdate(deps.db, before.name, set, deps.clock.now()));
  if (!row) throw new AppError("COUNCIL_MEMBER_NOT_FOUND", COUNCIL_TEXTS.unknownMember(name));
  const view = toView(deps, row);
  await audit(deps, actor, "council.update", row.name, diff(audited(toView(deps, before)), audited(view)));
  return { ...view, key_cleared: keyCleared };
}

export async function setCouncilSynthesisers(deps: Deps, names: readonly string[], actor: string): Promise<string[]> {
  const members = await listMembers(deps.db);
  const stored = checkSynthesisers(members, names);
  const before = members.filter((m) => m.synthesisRank !== null).sort((a, b) => a.synthesisRank! - b.synthesisRank!);
  await setSynthesisers(deps.db, stored, deps.clock.now());
  await audit(deps, actor, "council.synthesisers", null, {
    synthesisers: [before.map((m) => m.name), stored],
  });
  return stored;
}

export async function updateCouncilSettings(deps: Deps, patch: CouncilSettingsPatch, actor: string): Promise<CouncilView["settings"]> {
  const [members, before] = await Promise.all([listMembers(deps.db), getSettings(deps.db)]);
  const clarifier = patch.clarifier === undefined ? undefined : patch.clarifier === null ? null : memberOrFail(members, patch.clarifier);
  await updateSettings(deps.db, {
    ...(patch.peer_review !== undefined && { peerReview: patch.peer_review }),
    ...(clarifier !== undefined && { clarifierMemberId: clarifier?.id ?? null }),
    ...(patch.moderation_model !== undefined && { moderationModel: patch.moderation_model }),
  });
  const nameOf = (id: number | null) => members.find((m) => m.id === id)?.name ?? null;
  const changes: Record<string, [unknown, unknown]> = {};
  if (patch.peer_review !== undefined) changes.peer_review = [before.peerReview, patch.peer_review];
  if (clarifier !== undefined) changes.clarifier = [nameOf(before.clarifierMemberId), clarifier?.name ?? null];
  if (patch.moderation_model !== undefined) changes.moderation_model = [before.moderationModel, patch.moderation_model];
  await audit(deps, actor, "council.settings", null, changes);
  return (await councilOverview(deps)).settings;
}
