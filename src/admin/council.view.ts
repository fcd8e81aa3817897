import type { ProviderKind } from "./council.schemas.ts";

/** The probe's last result for a member: the newest probe or « Tester » call logged for it, on any server. */
export type MemberStatus = { ok: boolean | null; checked_at: string | null; latency_ms: number | null; error: string | null };

/** A member as the panel, the CLI and GET /api/admin/council show it: the key as its last 4 characters only. */
export type CouncilMemberView = {
  name: string;
  specialty: string;
  provider: ProviderKind;
  model: string;
  base_url: string | null;
  enabled: boolean;
  vision: boolean;
  price_in: number | null;
  price_out: number | null;
  timeout_ms: number | null;
  synthesis_rank: number | null;
  api_key: string | null;
  /**
   * Where that key comes from: typed in the panel or the CLI (sealed in the
   * database), or a *_API_KEY variable; "unreadable": a stored key this server
   * cannot open (api_key null, the member never called, status.error says why).
   */
  api_key_source: "stored" | "environment" | "unreadable" | null;
  status: MemberStatus;
};

export type CouncilView = {
  members: CouncilMemberView[];
  /** moderation_model: what the council chose (null: DEFAULT_MODERATION_MODEL, src/contracts/moderation.ts). */
  settings: { peer_review: boolean; clarifier: string | null; moderation_model: string | null; synthesisers: string[] };
};

/** « ••••abcd »: enough to tell two keys apart, never enough to use one. */
export function maskedKey(last4: string | null | undefined): string | null {
  return last4 ? `••••${last4}` : null;
}

export const NO_STATUS: MemberStatus = { ok: null, checked_at: null, latency_ms: null, error: null };
