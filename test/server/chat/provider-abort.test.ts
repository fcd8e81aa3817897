import { describe, expect, test } from "bun:test";
import { createAnthropicClient } from "../../../src/ai/providers/anthropic.ts";
import { createGoogleClient } from "../../../src/ai/providers/google.ts";
import { createMistralClient } from "../../../src/ai/providers/mistral.ts";
import { createOpenAiClient } from "../../../src/ai/providers/openai.ts";
import { createPerplexityClient } from "../../../src/ai/providers/perplexity.ts";
import type { ProviderClient } from "../../../src/ai/types.ts";
import { MODEL_ENV_DEFAULTS } from "../../../src/config.ts";
import type { FakeModel } from "../../fakes/ai/index.ts";
import { useFakeProviders } from "./chat.helpers.ts";

/**
 * A run's abort can come while a model's request is being made (a run
 * dropped for a precision as its models are asked: src/chat/run-drop.ts, or
 * stopped then). The Google SDK listened for the abort without looking
 * whether it had come already: such a request went on until the model
 * answered, and held its run (and POST /chat) that long. Every adapter,
 * through its real SDK to the fake provider, with a signal already aborted.
 */
const fakes = useFakeProviders();
const TIMEOUT_MS = 15_000;

const ADAPTERS: Array<[FakeModel, string, (env: Record<string, string>) => ProviderClient, string]> = [
  [
    "gpt4",
    "GPT-4",
    (env) => createOpenAiClient({ apiKey: env.OPENAI_API_KEY!, baseUrl: env.OPENAI_BASE_URL, timeoutMs: TIMEOUT_MS }),
    MODEL_ENV_DEFAULTS.MODEL_GPT4,
  ],
  [
    "claudeOpus",
    "Claude Opus 4.1",
    (env) => createAnthropicClient({ apiKey: env.ANTHROPIC_API_KEY!, baseUrl: env.ANTHROPIC_BASE_URL, timeoutMs: TIMEOUT_MS }),
    MODEL_ENV_DEFAULTS.MODEL_CLAUDE_OPUS,
  ],
  ["geminiPro", "Gemini Pro", (env) => createGoogleClient({ apiKey: env.GOOGLE_API_KEY!, baseUrl: env.GOOGLE_BASE_URL }), MODEL_ENV_DEFAULTS.MODEL_GEMINI_PRO],
  [
    "mistralLarge",
    "Mistral Large",
    (env) => createMistralClient({ apiKey: env.MISTRAL_API_KEY!, baseUrl: env.MISTRAL_BASE_URL, timeoutMs: TIMEOUT_MS }),
    MODEL_ENV_DEFAULTS.MODEL_MISTRAL_LARGE,
  ],
  [
    "sonarPro",
    "Sonar Pro",
    (env) => createPerplexityClient({ apiKey: env.PERPLEXITY_API_KEY!, baseUrl: env.PERPLEXITY_BASE_URL!, timeoutMs: TIMEOUT_MS }),
    MODEL_ENV_DEFAULTS.MODEL_SONAR_PRO,
  ],
];

describe("a request whose signal was aborted before its SDK listened ends at once, not when the model answers", () => {
  for (const [model, name, create, modelId] of ADAPTERS)
    test(name, async () => {
      fakes().control.set(model, { fail: "hang" });
      const request = { system: "Réponds.", messages: [{ role: "user" as const, content: "Quelle est la capitale de la France ?" }], maxTokens: 50 };
      const ended = create(fakes().env)
        .stream(modelId, request, AbortSignal.abort(), () => {})
        .then(
          () => "answered",
          () => "aborted",
        );
      const outcome = await Promise.race([ended, Bun.sleep(3_000).then(() => "still waiting after 3 s")]);
      expect(outcome).toBe("aborted");
    });
});
