import { MODEL_ENV_DEFAULTS } from "../../../src/config.ts";

/** What a fake provider can be told to do wrong, as real providers do. */
export type Failure = 500 | 429 | 401 | "hang" | "invalid-json";
export type CallKind = "answer" | "synthesis" | "clarification" | "probe";
export type FakeModel = "gpt4" | "claudeOpus" | "claudeHaiku" | "geminiPro" | "mistralLarge" | "sonarPro";

export type ModelScript = {
  /** Delay before answering an answer/clarification/probe call. */
  latencyMs?: number;
  /** Delay before answering a synthesis call (defaults to latencyMs). */
  synthesisLatencyMs?: number;
  fail?: Failure | null;
  /** Only these kinds fail (default: every kind). */
  failOn?: CallKind[];
  /** Fail only the next N matching calls, then answer (a transient 429/500). */
  failTimes?: number;
  answer?: string;
  /** Sonar Pro's `citations`. */
  citations?: string[];
};

export type RecordedCall = { provider: string; model: FakeModel | string; kind: CallKind; system: string; messages: Array<{ role: string; content: string }> };

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

export function defaultSynthesis(prompt: string): string {
  const labels = [...prompt.matchAll(/^Réponse ([A-Z]) :$/gm)].map((m) => m[1]);
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
  moderation: { flagged: boolean; categories: string[] } = { flagged: false, categories: [] };
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
    this.moderation = { flagged: false, categories: [] };
    this.calls = [];
  }

  modelOf(id: string): FakeModel | string {
    return ID_TO_MODEL[id] ?? id;
  }

  callsOf(kind: CallKind, model?: FakeModel): RecordedCall[] {
    return this.calls.filter((c) => c.kind === kind && (model === undefined || c.model === model));
  }

  /** Decides one call: record it, then the failure (if any), the delay and the text. */
  plan(provider: string, modelId: string, system: string, messages: Array<{ role: string; content: string }>) {
    const model = this.modelOf(modelId);
    const kind = kindOf(system, messages);
    this.calls.push({ provider, model, kind, system, messages });
    const script = this.scripts.get(model as FakeModel) ?? {};
    let failure: Failure | null = null;
    if (script.fail && (!script.failOn || script.failOn.includes(kind))) {
      if (script.failTimes === undefined) failure = script.fail;
      else if (script.failTimes > 0) {
        failure = script.fail;
        script.failTimes -= 1;
      }
    }
    const latencyMs = kind === "synthesis" ? (script.synthesisLatencyMs ?? script.latencyMs ?? 0) : (script.latencyMs ?? 0);
    const last = messages.at(-1)?.content ?? "";
    const name = NAMES[model as FakeModel] ?? modelId;
    const text =
      kind === "probe" ? "pong"
      : kind === "clarification" ? this.clarification
      : kind === "synthesis" ? this.synthesis(last, model)
      : (script.answer ?? `Réponse de ${name} : Paris est la capitale de la France.`);
    return { kind, failure, latencyMs, text, citations: script.citations ?? [] };
  }
}

function kindOf(system: string, messages: Array<{ role: string; content: string }>): CallKind {
  const last = messages.at(-1)?.content ?? "";
  if (last === "ping") return "probe";
  if (system.includes('"needs_clarification"')) return "clarification";
  if (last.includes("<<<DEBUT-")) return "synthesis";
  return "answer";
}

export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
