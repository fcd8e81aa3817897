import type { Config } from "../config.ts";
import { resolveMember } from "../council/resolve-member.ts";
import { lastFour, loadSecretKey, openStoredKey, type SecretKey } from "../council/secret-box.ts";
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
 * stored one or else its *_API_KEY variable's, and only a key it is really
 * called with: a stored key that cannot be opened shows none ("unreadable"),
 * an *_API_KEY withheld from another address neither (`keyProblem` says why).
 */
export function memberForPanel(config: Config, row: CouncilMemberRow) {
  const own = openStoredKey(() => councilSecretKey(config), row.apiKeyEnc);
  const resolved = resolveMember(row, config, own);
  const usedKey = resolved.clientSpec?.apiKey;
  return {
    resolved,
    maskedKey: maskedKey(usedKey && lastFour(usedKey)),
    keySource: own.state === "none" ? (usedKey ? ("environment" as const) : null) : own.state === "open" ? ("stored" as const) : ("unreadable" as const),
  };
}
