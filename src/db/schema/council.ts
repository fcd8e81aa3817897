import type { ProviderKind } from "../../contracts/providers.ts";
import type { Columns } from "./columns.ts";

export { PROVIDER_KINDS, type ProviderKind } from "../../contracts/providers.ts";

/** The keys of the six members every installation starts with (their defaults come from MODEL_*, *_API_KEY, *_BASE_URL, AI_PRICE_*). */
export const BUILTIN_KEYS = ["gpt4", "claudeHaiku", "claudeOpus", "geminiPro", "mistralLarge", "sonarPro"] as const;
export type BuiltinKey = (typeof BUILTIN_KEYS)[number];

export function councilTables(c: Columns) {
  /**
   * The models that answer (docs/DECISIONS.md, "The council is data"). The
   * six seeded by the migration carry a `builtin_key`: a column they leave
   * NULL (model, base URL, key, prices, timeout) follows today's environment
   * variables, so an upgraded installation keeps exactly what it had. Added
   * members set everything themselves. `api_key_enc` is sealed with
   * AES-256-GCM (src/council/secret-box.ts), never the key in clear.
   */
  const councilMembers = c.table(
    "council_members",
    {
      id: c.id(),
      name: c.text("name").notNull(),
      specialty: c.text("specialty").notNull(),
      provider: c.text("provider").$type<ProviderKind>().notNull(),
      /** Provider model id; NULL on a seeded member: MODEL_<KEY>. */
      model: c.text("model"),
      baseUrl: c.text("base_url"),
      apiKeyEnc: c.text("api_key_enc"),
      apiKeyLast4: c.text("api_key_last4"),
      builtinKey: c.text("builtin_key").$type<BuiltinKey>(),
      vision: c.flag("vision").notNull(),
      /** Euros per million tokens; NULL on a seeded member: AI_PRICE_<KEY> or src/ai/prices.ts. */
      priceInEur: c.real("price_in_eur"),
      priceOutEur: c.real("price_out_eur"),
      /** NULL: AI_TIMEOUT_MS. */
      timeoutMs: c.int("timeout_ms"),
      enabled: c.flag("enabled").notNull(),
      /** Order among the synthesisers, 1 writes first; NULL: never a synthesiser. */
      synthesisRank: c.int("synthesis_rank"),
      /** Display order (model list, status, panels). */
      position: c.int("position").notNull(),
      createdAt: c.timestamp("created_at").notNull(),
      updatedAt: c.timestamp("updated_at").notNull(),
    },
    (t) => [c.uniqueIndex("council_members_name_idx").on(t.name), c.uniqueIndex("council_members_builtin_idx").on(t.builtinKey)],
  );

  /**
   * The council's one settings row (id 1). `version` is bumped by every
   * change of either table, in the same transaction: a server compares it
   * with its snapshot's to know it must read the council again.
   */
  const councilSettings = c.table("council_settings", {
    id: c.fixedId(),
    /** The member asked first for clarifying questions; NULL: the first enabled member. */
    clarifierMemberId: c.int("clarifier_member_id"),
    /** OpenAI moderation model id; NULL: omni-moderation-latest. */
    moderationModel: c.text("moderation_model"),
    peerReview: c.flag("peer_review").notNull(),
    version: c.int("version").notNull(),
  });
  return { councilMembers, councilSettings };
}
