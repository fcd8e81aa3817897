import type { Config } from "../config.ts";
import { DEFAULT_PRICES } from "../ai/prices.ts";
import { loadSecretKey, openSecret, type SecretKey } from "../council/secret-box.ts";
import type { CouncilMemberRow } from "../db/schema/index.ts";
import { maskedKey } from "./council.view.ts";

/** The key that seals members' API keys, loaded once per process (a file read on SQLite). */
let cached: { config: Config; key: SecretKey } | undefined;
export function councilSecretKey(config: Config): SecretKey {
  if (cached?.config !== config) cached = { config, key: loadSecretKey(config) };
  return cached.key;
}

/**
 * What a member really uses, as the panel shows it: a seeded member's NULL
 * columns follow today's variables (MODEL_*, *_BASE_URL, *_API_KEY,
 * AI_PRICE_*, AI_TIMEOUT_MS), so the panel never shows an empty model id
 * where the server calls one.
 */
export function effectiveMember(config: Config, row: CouncilMemberRow) {
  const builtin = row.builtinKey;
  const env = builtin && row.provider !== "openai-compatible" ? config.ai[row.provider] : undefined;
  const price = builtin ? (config.ai.prices[builtin] ?? DEFAULT_PRICES[builtin]) : undefined;
  const envKey = env?.apiKey;
  return {
    model: row.model ?? (builtin ? config.ai.models[builtin] : ""),
    baseUrl: row.baseUrl ?? env?.baseUrl ?? null,
    priceIn: row.priceInEur ?? price?.inEur ?? null,
    priceOut: row.priceOutEur ?? price?.outEur ?? null,
    timeoutMs: row.timeoutMs ?? config.ai.timeoutMs,
    maskedKey: maskedKey(row.apiKeyLast4 ?? (envKey ? envKey.slice(-4) : null)),
    keySource: row.apiKeyEnc ? ("stored" as const) : envKey ? ("environment" as const) : null,
    apiKey: row.apiKeyEnc ? openSecret(councilSecretKey(config), row.apiKeyEnc) : envKey,
  };
}
