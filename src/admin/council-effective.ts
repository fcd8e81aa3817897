import type { Config } from "../config.ts";
import { resolveMember } from "../council/resolve-member.ts";
import { loadSecretKey, type SecretKey } from "../council/secret-box.ts";
import type { CouncilMemberRow } from "../db/schema/index.ts";
import { maskedKey } from "./council.view.ts";

// Module state: the sealing key derived once per config (a key file read or a SHA-256), not once per listed member.
let cached: { config: Config; key: SecretKey } | undefined;

/** The key that seals members' API keys, loaded once per configuration (a file read on SQLite). */
export function councilSecretKey(config: Config): SecretKey {
  if (cached?.config !== config) cached = { config, key: loadSecretKey(config) };
  return cached.key;
}

/**
 * A member as the panel shows it: what it really runs with (the runtime's
 * resolveMember: a seeded member's NULL columns follow MODEL_*, *_BASE_URL,
 * AI_PRICE_*, AI_TIMEOUT_MS), and its key as its last 4 characters, the
 * stored one or else its *_API_KEY variable's. The key itself is never opened here.
 */
export function memberForPanel(config: Config, row: CouncilMemberRow) {
  const resolved = resolveMember(row, config, undefined);
  const envKey = row.apiKeyEnc ? undefined : resolved.clientSpec.apiKey;
  return {
    resolved,
    maskedKey: maskedKey(row.apiKeyLast4 ?? envKey?.slice(-4)),
    keySource: row.apiKeyEnc ? ("stored" as const) : envKey ? ("environment" as const) : null,
  };
}
