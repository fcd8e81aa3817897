import type { ModelDef } from "../ai/registry.ts";
import { providerLabel } from "../ai/registry.ts";
import type { ProviderKey } from "../ai/types.ts";
import type { Config } from "../config.ts";
import type { CouncilMemberRow } from "../db/schema/index.ts";
import { frCouncil } from "../i18n/fr-council.ts";
import { BUILTIN_DEFAULTS } from "./builtins.ts";
import type { ClientSpec } from "./member-clients.ts";
import type { StoredKey } from "./secret-box.ts";

/**
 * A member with every value it runs with, before its SDK client is attached.
 * `clientSpec` null: the member must not be called (`keyProblem` says why, in
 * French); `baseUrl` is the address it is shown with either way.
 */
export type ResolvedMember = Omit<ModelDef, "client"> & {
  enabled: boolean;
  clientSpec: ClientSpec | null;
  baseUrl: string | undefined;
  keyProblem: string | null;
};

/** Where each native provider's SDK sends its calls when *_BASE_URL is unset. */
const PROVIDER_ADDRESSES: Record<Exclude<ProviderKey, "openai-compatible">, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
  google: "https://generativelanguage.googleapis.com",
  mistral: "https://api.mistral.ai",
  perplexity: "https://api.perplexity.ai",
};

const sameAddress = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

/**
 * A member's row as it runs (docs/DECISIONS.md, "The council is data"):
 * what the row leaves NULL comes from the environment. A seeded member
 * (builtin_key) falls back to MODEL_<KEY>, AI_PRICE_<KEY> (or
 * src/ai/prices.ts); any member of a native provider to that provider's
 * *_BASE_URL; the timeout to AI_TIMEOUT_MS. An added member without prices
 * costs nothing. `own` is the member's stored key (secret-box.ts
 * openStoredKey). Keys never travel where they were not meant to (issues 44,
 * 48): a stored key that cannot be opened leaves the member uncalled (never
 * called with the operator's key instead), and a *_API_KEY goes only to its
 * provider's own address (*_BASE_URL, else the SDK's default), never to a
 * base URL the council set elsewhere.
 */
export function resolveMember(row: CouncilMemberRow, config: Config, own: StoredKey): ResolvedMember {
  const builtin = row.builtinKey;
  const env = row.provider === "openai-compatible" ? undefined : config.ai[row.provider];
  const modelId = row.model ?? (builtin ? config.ai.models[builtin] : "");
  const fallbackPrice = builtin ? config.ai.prices[builtin] : { inEur: 0, outEur: 0 };
  const baseUrl = row.baseUrl ?? env?.baseUrl;
  const resolved = {
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
    baseUrl,
  };
  const uncalled = (keyProblem: string) => ({ ...resolved, clientSpec: null, keyProblem });
  if (own.state === "unreadable") return uncalled(frCouncil.keyUnreadable);
  if (own.state === "open") return { ...resolved, clientSpec: { provider: row.provider, apiKey: own.key, baseUrl }, keyProblem: null };
  if (env?.apiKey && row.provider !== "openai-compatible" && baseUrl && !sameAddress(baseUrl, env.baseUrl ?? PROVIDER_ADDRESSES[row.provider])) {
    return uncalled(frCouncil.envKeyElsewhere(row.provider));
  }
  return { ...resolved, clientSpec: { provider: row.provider, apiKey: env?.apiKey, baseUrl }, keyProblem: null };
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
