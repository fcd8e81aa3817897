import type { ModelDef } from "../ai/registry.ts";
import { providerLabel } from "../ai/registry.ts";
import type { Config } from "../config.ts";
import type { CouncilMemberRow } from "../db/schema/index.ts";
import { BUILTIN_DEFAULTS } from "./builtins.ts";
import type { ClientSpec } from "./member-clients.ts";

/** A member with every value it runs with, before its SDK client is attached. */
export type ResolvedMember = Omit<ModelDef, "client"> & { enabled: boolean; clientSpec: ClientSpec };

/**
 * A member's row as it runs (docs/DECISIONS.md, "The council is data"):
 * what the row leaves NULL comes from the environment. A seeded member
 * (builtin_key) falls back to MODEL_<KEY>, AI_PRICE_<KEY> (or
 * src/ai/prices.ts); any member of a native provider to that provider's
 * *_API_KEY and *_BASE_URL; the timeout to AI_TIMEOUT_MS. An added member
 * without prices costs nothing. `apiKey` is the member's own key, opened.
 */
export function resolveMember(row: CouncilMemberRow, config: Config, apiKey: string | undefined): ResolvedMember {
  const builtin = row.builtinKey;
  const env = row.provider === "openai-compatible" ? undefined : config.ai[row.provider];
  const modelId = row.model ?? (builtin ? config.ai.models[builtin] : "");
  const fallbackPrice = builtin ? config.ai.prices[builtin] : { inEur: 0, outEur: 0 };
  return {
    key: memberKey(row),
    memberId: row.id,
    name: shownName(row, modelId),
    provider: row.provider,
    providerLabel: providerLabel(row.provider),
    specialty: row.specialty,
    priority: row.synthesisRank,
    modelId,
    vision: row.vision,
    price: { inEur: row.priceInEur ?? fallbackPrice.inEur, outEur: row.priceOutEur ?? fallbackPrice.outEur },
    timeoutMs: row.timeoutMs ?? config.ai.timeoutMs,
    enabled: row.enabled,
    clientSpec: { provider: row.provider, apiKey: apiKey ?? env?.apiKey, baseUrl: row.baseUrl ?? env?.baseUrl },
  };
}

/** The key availability and the probes know a member by (`deps.ai.availability.get(key)`): stable across renames. */
export function memberKey(row: Pick<CouncilMemberRow, "id" | "builtinKey">): string {
  return row.builtinKey ?? `member-${row.id}`;
}

/**
 * "Truthful names": a seeded member still under its seeded name but pointed
 * at another model id than that name's (MODEL_GPT4=gpt-5, or the model set in
 * the council) shows the model id it really calls; a name the operator chose
 * is shown as chosen.
 */
function shownName(row: CouncilMemberRow, modelId: string): string {
  if (!row.builtinKey) return row.name;
  const seeded = BUILTIN_DEFAULTS[row.builtinKey];
  return row.name === seeded.name && modelId !== seeded.model ? modelId : row.name;
}
