import { MODEL_ENV_DEFAULTS } from "../../../src/config.ts";
import { fakeJudgeAnswer } from "./refusal-judge.ts";

/**
 * What a fake provider can be told to do wrong, as real providers do: an HTTP
 * status in the provider's error shape, a request held open ("hang"), a body
 * that is not JSON, or, inside a streamed answer: the connection cut mid-text
 * ("cut"), a first token then silence ("stall"), no text at all ("empty"), the
 * provider's native refusal signal ("refusal"), a text cut at the token limit
 * with its finish reason ("length"), or a polite refusal in plain text ("decline").
 */
export type Failure = 400 | 401 | 403 | 429 | 500 | 503 | "hang" | "invalid-json" | "cut" | "stall" | "empty" | "refusal" | "length" | "decline";
export type CallKind = "answer" | "synthesis" | "clarification" | "probe" | "ranking" | "refusal_check";

export const DECLINE_TEXT = "Je suis désolé, je ne peux pas rédiger cette synthèse.";
export type FakeModel = "gpt4" | "claudeOpus" | "claudeHaiku" | "geminiPro" | "mistralLarge" | "sonarPro";

export type ModelScript = {
  /** Delay before the first token of an answer/clarification/probe call. */
  latencyMs?: number;
  /** Time from the first to the last token of a streamed answer (default 0: all at once). */
  durationMs?: number;
  /** Delay before the first token of a synthesis call (defaults to latencyMs). */
  synthesisLatencyMs?: number;
  /** First to last token of a synthesis (defaults to durationMs). */
  synthesisDurationMs?: number;
  /** Delay before the first token of a peer review's ranking call (defaults to latencyMs). */
  rankingLatencyMs?: number;
  /** The `retry-after` header (seconds) sent with a 429. */
  retryAfterS?: number;
  fail?: Failure | null;
  /** Only these kinds fail (default: every kind). */
  failOn?: CallKind[];
  /** Fail only the next N matching calls, then answer (a transient 429/500). */
  failTimes?: number;
  answer?: string;
  /** A synthesis that stops after its first `afterPieces` pieces until `until` settles (a slow writer the test releases). */
  synthesisPause?: Pause;
  /** The same for an answer: the model is seen writing for as long as the test needs, however slow the box. */
  answerPause?: Pause;
  /** A clarification answered only once this settles (after its latency): the verdict comes when the test's condition holds, not after a guessed time. */
  clarificationHold?: Promise<unknown>;
  /** Sonar Pro's `citations`. */
  citations?: string[];
  /** How many pieces a streamed text is cut into (default 12); a real answer comes in a hundred or more. */
  pieces?: number;
  /** This model's synthesis text instead of `FakeControl.synthesis` (a process of its own takes scripts as JSON only). */
  synthesisAnswer?: string;
};

export type Pause = { afterPieces: number; until: Promise<unknown> };

export type RecordedCall = {
  provider: string;
  model: FakeModel | string;
  kind: CallKind;
  system: string;
  messages: Array<{ role: string; content: string }>;
  /** The messages exactly as the provider received them (content parts, images in its own format). */
  raw: unknown;
  at: number;
  /** When the client gave the request up before its last byte (a stop, a deadline): the upstream call seen aborted. */
  abortedAt?: number;
  /** The bearer key the call carried (the OpenAI fake records it: which key reached which address). */
  apiKey?: string;
};

const NAMES: Record<FakeModel, string> = {
  gpt4: "GPT-4",
  claudeOpus: "Claude Opus 4.1",
  claudeHaiku: "Claude 3 Haiku",
  geminiPro: "Gemini Pro",
  mistralLarge: "Mistral Large",
  sonarPro: "Sonar Pro",
};

const ID_TO_MODEL: Record<string, FakeModel> = {
  [MODEL_ENV_DEFAULTS.MODEL_GPT4]: "gpt4",
  [MODEL_ENV_DEFAULTS.MODEL_CLAUDE_OPUS]: "claudeOpus",
  [MODEL_ENV_DEFAULTS.MODEL_CLAUDE_HAIKU]: "claudeHaiku",
  [MODEL_ENV_DEFAULTS.MODEL_GEMINI_PRO]: "geminiPro",
  [MODEL_ENV_DEFAULTS.MODEL_MISTRAL_LARGE]: "mistralLarge",
  [MODEL_ENV_DEFAULTS.MODEL_SONAR_PRO]: "sonarPro",
};

/** The labels of the answers a prompt shows (« Réponse A : » lines), in order. */
function promptLabels(prompt: string): string[] {
  return [...prompt.matchAll(/^Réponse ([A-Z]) :$/gm)].map((m) => m[1]!);
}

/** A peer review's ranking: a word on each answer shown, then the strict last line, in alphabetical order. */
export function defaultRanking(prompt: string): string {
  const labels = promptLabels(prompt);
  return [...labels.map((l) => `Réponse ${l} : exacte et claire.`), "", `CLASSEMENT : ${labels.join(", ")}`].join("\n");
}

export function defaultSynthesis(prompt: string): string {
  const labels = promptLabels(prompt);
  return [
    "## Réponse consolidée",
    "Paris est la capitale de la France.",
    "## Points de consensus",
    `Toutes les réponses (${labels.map((l) => `Réponse ${l}`).join(", ")}) s'accordent sur Paris.`,
    "## Divergences",
    "Aucune divergence notable.",
  ].join("\n");
}

/**
 * The knobs of the fake providers, shared by all five servers: per-model
 * latency, failures and answers; the clarification verdict, the synthesis and
 * the moderation verdict; and every call received, for assertions.
 */
export class FakeControl {
  scripts = new Map<FakeModel, ModelScript>();
  clarification: string = JSON.stringify({ needs_clarification: false, questions: [] });
  synthesis: (prompt: string, model: FakeModel | string) => string = defaultSynthesis;
  /** A peer review's ranking answer (a test may make one unreadable). */
  ranking: (prompt: string, model: FakeModel | string) => string = defaultRanking;
  moderation: { flagged: boolean; categories: string[] } = { flagged: false, categories: [] };
  /** The refusal confirmation's verdict (src/ai/refusal-confirm.ts), by the fixed rule of refusal-judge.ts. */
  refusalCheck: (prompt: string) => string = fakeJudgeAnswer;
  /** The moderation endpoint failing (status or "hang"); null = it answers. */
  moderationFail: Failure | null = null;
  /** Every moderation request received, with the model it named (the council's moderation model). */
  moderations: Array<{ model: string; input: string }> = [];
  calls: RecordedCall[] = [];

  set(model: FakeModel, script: ModelScript): this {
    this.scripts.set(model, { ...this.scripts.get(model), ...script });
    return this;
  }

  setAll(script: ModelScript): this {
    for (const m of Object.keys(NAMES) as FakeModel[]) this.set(m, script);
    return this;
  }

  /** Scripted clarifying questions for the next pre-pass calls ([] = no clarification). */
  clarify(questions: string[]): this {
    this.clarification = JSON.stringify({ needs_clarification: questions.length > 0, questions });
    return this;
  }

  reset(): void {
    this.scripts.clear();
    this.clarification = JSON.stringify({ needs_clarification: false, questions: [] });
    this.synthesis = defaultSynthesis;
    this.ranking = defaultRanking;
    this.refusalCheck = fakeJudgeAnswer;
    this.moderation = { flagged: false, categories: [] };
    this.moderationFail = null;
    this.moderations = [];
    this.calls = [];
  }

  modelOf(id: string): FakeModel | string {
    return ID_TO_MODEL[id] ?? id;
  }

  /** The calls the client gave up before they ended. */
  abortedCalls(kind?: CallKind): RecordedCall[] {
    return this.calls.filter((c) => c.abortedAt !== undefined && (kind === undefined || c.kind === kind));
  }

  callsOf(kind: CallKind, model?: FakeModel): RecordedCall[] {
    return this.calls.filter((c) => c.kind === kind && (model === undefined || c.model === model));
  }

  /** Decides one call: record it, then the failure (if any), the delay and the text. */
  plan(provider: string, modelId: string, system: string, messages: Array<{ role: string; content: string }>, raw: unknown = null) {
    const model = this.modelOf(modelId);
    const kind = kindOf(system, messages);
    const call: RecordedCall = { provider, model, kind, system, messages, raw, at: performance.now() };
    this.calls.push(call);
    const script = this.scripts.get(model as FakeModel) ?? {};
    let failure: Failure | null = null;
    if (script.fail && (!script.failOn || script.failOn.includes(kind))) {
      if (script.failTimes === undefined) failure = script.fail;
      else if (script.failTimes > 0) {
        failure = script.fail;
        script.failTimes -= 1;
      }
    }
    const latencyMs =
      kind === "synthesis"
        ? (script.synthesisLatencyMs ?? script.latencyMs ?? 0)
        : kind === "ranking"
          ? (script.rankingLatencyMs ?? script.latencyMs ?? 0)
          : (script.latencyMs ?? 0);
    const durationMs = kind === "synthesis" ? (script.synthesisDurationMs ?? script.durationMs ?? 0) : (script.durationMs ?? 0);
    const last = messages.at(-1)?.content ?? "";
    const name = NAMES[model as FakeModel] ?? modelId;
    const text =
      kind === "probe"
        ? "pong"
        : kind === "clarification"
          ? this.clarification
          : kind === "synthesis"
            ? (script.synthesisAnswer ?? this.synthesis(last, model))
            : kind === "ranking"
              ? this.ranking(last, model)
              : kind === "refusal_check"
                ? this.refusalCheck(last)
                : (script.answer ?? `Réponse de ${name} : Paris est la capitale de la France.`);
    const pause = kind === "synthesis" ? script.synthesisPause : kind === "answer" ? script.answerPause : undefined;
    return {
      kind,
      failure,
      latencyMs,
      durationMs,
      pause,
      hold: kind === "clarification" ? script.clarificationHold : undefined,
      text: failure === "decline" ? DECLINE_TEXT : text,
      citations: script.citations ?? [],
      pieces: script.pieces,
      retryAfterS: script.retryAfterS,
      call,
    };
  }
}

function kindOf(system: string, messages: Array<{ role: string; content: string }>): CallKind {
  const last = messages.at(-1)?.content ?? "";
  if (last === "ping") return "probe";
  if (system.includes('"needs_clarification"')) return "clarification";
  if (system.includes('{"refus": true}')) return "refusal_check";
  // A peer review's prompt asks for the strict « CLASSEMENT : » line (src/chat/peer-review-prompt.ts).
  if (system.includes("CLASSEMENT :")) return "ranking";
  if (last.includes("<<<DEBUT-")) return "synthesis";
  return "answer";
}

export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
