import { PROVIDER_LABELS } from "../contracts/providers.ts";
import type { Price } from "./prices.ts";
import type { ProviderClient, ProviderKey } from "./types.ts";

/**
 * One member of the council as a run uses it: its row of council_members
 * resolved against the environment (src/council/resolve-member.ts) and given
 * its SDK client. A run takes the whole list once, at its start
 * (src/council/council-runtime.ts), and keeps it to its end.
 */
export type ModelDef = {
  /** Stable while the member exists (a rename keeps it): availability and the probes follow it. The six keep 'gpt4', 'claudeHaiku'... */
  key: string;
  memberId: number;
  /** Display name, as users see it (docs/DECISIONS.md, "Truthful names"). */
  name: string;
  provider: ProviderKey;
  /** Provider name as the model list shows it. */
  providerLabel: string;
  /** French specialty line shown next to the model. */
  specialty: string;
  /** Synthesis order, 1 writes first; null: never a synthesiser. */
  priority: number | null;
  /** Provider model id. */
  modelId: string;
  /** Whether it reads images. */
  vision: boolean;
  price: Price;
  timeoutMs: number;
  /** The SDK client with the member's key and base URL; null without a key (named "no key", never called). */
  client: ProviderClient | null;
};

export function providerLabel(provider: ProviderKey): string {
  return PROVIDER_LABELS[provider];
}

/** The synthesisers among `models`, first writer first (members without a rank are left out). */
export function byPriority<T extends { priority: number | null }>(models: readonly T[]): T[] {
  return models.filter((m) => m.priority !== null).sort((a, b) => a.priority! - b.priority!);
}
