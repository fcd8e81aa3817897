/**
 * The `result_data` of a final answer, as the engine stores it and the API
 * sends it (inside a message, and in the `final` event of a run). The engine
 * writes it (src/chat/chat.consolidate.ts); the page reads it (model panel,
 * per-model answers). Types only: hono's client cannot infer a JSON column.
 */

import type { PeerReview } from "./peer-review.ts";

export type ModelStatus = "answered" | "failed" | "left_out" | "skipped";

export type ModelReport = {
  name: string;
  provider: string;
  label: string | null;
  status: ModelStatus;
  answer: string | null;
  latency_ms: number;
  tokens_in: number | null;
  tokens_out: number | null;
  cost_eur: number;
  citations: string[];
  error: string | null;
  /** The answer declined one part of the question and answered the rest (src/ai/refusal.ts): kept, marked. */
  partial_refusal?: true;
};

/** A model that is not in the answer, and why. */
export type Missing = { name: string; reason: string };

export type Degradation = {
  answered: number;
  /** The configured models (an operator's choice not to configure one is not a degradation). */
  asked: number;
  missing: Missing[];
  /** The synthesiser that should have written it, when another one did. */
  fallback_from: string | null;
  charged: boolean;
};

export type Consolidation = {
  final_response: string;
  primary_ai: string;
  available_ais: string[];
  /** Every model that is not in the answer, with its reason (failed, left out, not asked). */
  failed_ais: Array<{ name: string; error: string }>;
  labels: Record<string, string>;
  models: ModelReport[];
  synthesis: {
    model: string;
    latency_ms: number;
    tokens_in: number | null;
    tokens_out: number | null;
    cost_eur: number;
    attempts: Array<{ name: string; error: string }>;
  };
  degraded: Degradation | null;
  notice: string | null;
  /** The members' ranking of each other's answers, when the council's peer review was on (absent in older answers). */
  peer_review?: PeerReview | null;
  /** The council's web search (issue 45), when the question was asked with it: the numbered sources and the notice of a failed search. */
  web_search?: { query: string; sources: Array<{ n: number; title: string; url: string; domain: string }>; notice: string | null };
  /** Every call of the run (answers, peer review, every synthesis attempt), in euros. */
  cost_eur: number;
  /** With documents (issue 33): where reading stopped, the models that could not see the pictures; also above the answer's text. */
  document_notices?: string[];
};
