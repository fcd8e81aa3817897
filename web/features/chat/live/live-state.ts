import type { RunEvent } from "./run-stream.ts";
import { placePiece } from "./model-text.ts";

export type ModelLine = {
  name: string;
  state: "waiting" | "writing" | "answered" | "failed" | "left_out" | "skipped";
  seconds?: string;
  reason?: string;
  /** The model's answer as it is written (model_delta pieces). */
  text?: string;
};

export type LiveState = {
  models: ModelLine[];
  synthesisBy: string | null;
  /** Synthesis text as it is written; reset when a synthesiser fails and the next one starts. */
  text: string;
  /** The synthesisers that failed, with their reason. */
  handovers: Array<{ model: string; reason: string }>;
  /** 15/30/65/85/95/100: the spec's steps, driven by real events. */
  step: number;
  /** `code`: the server's error code (COUNCIL_DECLINED: the members declined, a retry as such would get the same). */
  failed: { code: string; detail: string; answers: Array<{ name: string; answer: string }> } | null;
  done: boolean;
  /** The council's peer review (« Délibération »), when the run has one: under way, then who did not rank. */
  peerReview: { done: boolean; failures: string[] } | null;
  /** The run's web search (issue 45), when it has one: under way, then the sources found (or the notice). */
  web: LiveWeb | null;
};

export type LiveWeb = { searching: boolean; sources: Array<{ n: number; title: string; url: string; domain: string }>; notice: string | null };

export const EMPTY: LiveState = {
  models: [],
  synthesisBy: null,
  text: "",
  handovers: [],
  step: 15,
  failed: null,
  done: false,
  peerReview: null,
  web: null,
};

const seconds = (ms: unknown) => (typeof ms === "number" ? (ms / 1000).toLocaleString("fr-FR", { maximumFractionDigits: 1 }) : undefined);

function setModel(s: LiveState, name: string, patch: Partial<ModelLine>): ModelLine[] {
  return s.models.map((m) => (m.name === name ? { ...m, ...patch } : m));
}

/** One event applied to the live view (pure: the tests replay event lists through it). */
export function reduce(s: LiveState, e: RunEvent): LiveState {
  switch (e.type) {
    case "run_started":
      return {
        ...EMPTY,
        step: 30,
        models: [
          ...e.data.models.map((name): ModelLine => ({ name, state: "waiting" })),
          ...e.data.skipped.map((k): ModelLine => ({ name: k.model, state: "skipped", reason: k.reason })),
        ],
      };
    case "model_delta": {
      const line = s.models.find((m) => m.name === e.data.model);
      if (!line) return s;
      const text = placePiece(line.text ?? "", e.data.from, e.data.text);
      return { ...s, models: setModel(s, e.data.model, { text, state: line.state === "waiting" ? "writing" : line.state }) };
    }
    case "model_answered": {
      const models = setModel(s, e.data.model, { state: "answered", seconds: seconds(e.data.latency_ms) });
      return { ...s, models, step: Math.max(s.step, 65) };
    }
    case "model_failed":
      return { ...s, models: setModel(s, e.data.model, { state: "failed", reason: e.data.reason }) };
    case "model_left_out":
      return { ...s, models: setModel(s, e.data.model, { state: "left_out", reason: e.data.reason }) };
    case "web_search_started":
      return { ...s, web: { searching: true, sources: [], notice: null } };
    case "web_sources":
      return { ...s, web: { searching: false, sources: e.data.sources, notice: e.data.notice } };
    case "peer_review_started":
      return { ...s, peerReview: { done: false, failures: [] } };
    case "peer_review":
      return { ...s, peerReview: { done: true, failures: e.data.failures } };
    case "synthesis_started":
      return { ...s, synthesisBy: e.data.model, text: "", step: Math.max(s.step, 85) };
    case "synthesis_delta":
      return { ...s, text: s.text + e.data.text, step: 95 };
    case "synthesis_failed":
      return { ...s, text: "", handovers: [...s.handovers, { model: e.data.model, reason: e.data.reason }] };
    case "final":
      return { ...s, step: 100, done: true };
    case "failed":
      return { ...s, failed: { code: e.data.code, detail: e.data.detail, answers: e.data.answers ?? [] }, done: true };
    default:
      return s;
  }
}
