import type { PeerReview } from "./peer-review.ts";

/**
 * The events of a final-processing run, as Server-Sent Events: the `event:`
 * names and the JSON of each `data:`. The engine emits them
 * (src/chat/run.live.ts checks every emit against this map) and the page
 * follows them (web/features/chat/live/). Types only, apart from the list of
 * names: hono's client cannot infer a stream.
 *
 * `final` carries the same object as the JSON answer of POST /process; each
 * side names that answer from its own source (the server from its function,
 * the page from the route), hence the parameter.
 */
export const RUN_EVENT_TYPES = [
  "run_started",
  "web_search_started",
  "web_sources",
  "model_started",
  "model_delta",
  "model_answered",
  "model_failed",
  "model_left_out",
  "peer_review_started",
  "peer_review",
  "synthesis_started",
  "synthesis_delta",
  "synthesis_failed",
  "final",
  "failed",
] as const;

export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

export type RunEventData<Final = unknown> = {
  run_started: { models: string[]; skipped: Array<{ model: string; reason: string }>; soft_deadline_ms: number; quorum: number };
  /** The council's web search has begun (issue 45): what is searched. */
  web_search_started: { query: string };
  /** The numbered sources every member reads; none, and the notice, when the search or the pages failed. */
  web_sources: { sources: Array<{ n: number; title: string; url: string; domain: string }>; notice: string | null };
  model_started: { model: string };
  /**
   * A model's answer as it is written: `text` goes at character `from` of
   * that model's text (the text becomes text.slice(0, from) + piece, when
   * `from` is not past its end). Pieces of about 100 ms; a client that comes
   * back (Last-Event-ID, a reload) gets each model's text so far in one piece
   * from 0. On a server that does not carry the run out, pieces relayed live
   * come without an id (docs/API.md, "Each model writing").
   */
  model_delta: { model: string; from: number; text: string };
  model_answered: { model: string; latency_ms: number; tokens_in: number | null; tokens_out: number | null; cost_eur: number };
  model_failed: { model: string; reason: string; latency_ms: number };
  model_left_out: { model: string; reason: string };
  /** The members asked to rank the others' answers (only when the council's peer review is on). */
  peer_review_started: { models: string[] };
  /** The aggregate ranking and who did not rank, once every ranking call ended. */
  peer_review: PeerReview;
  /** The notice and the labels let a client finish the text as it is written (the /v1 stream). */
  synthesis_started: { model: string; notice: string | null; labels: Record<string, string> };
  synthesis_delta: { text: string };
  synthesis_failed: { model: string; reason: string };
  final: Final;
  /** `idle` (and no answers): there was no run to follow (nothing to process), not a failure of one. */
  /** A run the user stopped (code RUN_STOPPED) carries its `stopped_response` message, as GET /conversation/{id} shows it. */
  failed: {
    code: string;
    detail: string;
    refunded?: boolean;
    answers?: Array<{ name: string; answer: string }>;
    /** A stopped run: each model still writing when it stopped, with its text so far. */
    partial_answers?: Array<{ name: string; text: string }>;
    idle?: boolean;
    message?: {
      id: number;
      content: string;
      sender: "user" | "assistant";
      message_type: string | null;
      timestamp: string;
      result_data: Record<string, unknown> | null;
    };
  };
};

/** One event: its id (for Last-Event-ID), its name and its data, matched. */
export type RunEventOf<Final = unknown> = { [K in RunEventType]: { id: number; type: K; data: RunEventData<Final>[K] } }[RunEventType];

/** Any event, its data unchecked: as the server stores and relays them (src/chat/live-run.ts's RunEvent). */
export type LooseRunEvent = { id: number; type: RunEventType; data: Record<string, unknown> };
