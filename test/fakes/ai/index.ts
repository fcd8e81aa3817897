import { startAnthropicFake } from "./anthropic.fake.ts";
import { FakeControl } from "./control.ts";
import { startGeminiFake } from "./gemini.fake.ts";
import { startMistralFake } from "./mistral.fake.ts";
import { startOpenAiFake } from "./openai.fake.ts";
import { startPerplexityFake } from "./perplexity.fake.ts";

export { FakeControl } from "./control.ts";
export type { CallKind, Failure, FakeModel, ModelScript } from "./control.ts";

export type FakeProviders = {
  /** The variables that point the server (in-process or the compiled binary) at the fakes. */
  env: Record<string, string>;
  control: FakeControl;
  stop(): Promise<void>;
};

/**
 * Starts the five fake providers on 127.0.0.1, each on its own port 0, and
 * returns the keys and base URLs as the SDKs take them (CONFIG.md): openai's
 * baseURL ends in /v1, Anthropic's and Mistral's and Gemini's do not (their
 * SDKs add /v1, /v1 and /v1beta), Perplexity has no version segment.
 */
export function startFakeProviders(): FakeProviders {
  const control = new FakeControl();
  const openai = startOpenAiFake(control);
  const anthropic = startAnthropicFake(control);
  const gemini = startGeminiFake(control);
  const mistral = startMistralFake(control);
  const perplexity = startPerplexityFake(control);
  const env = {
    OPENAI_API_KEY: "sk-fake-openai",
    OPENAI_BASE_URL: `${openai.url}/v1`,
    ANTHROPIC_API_KEY: "sk-ant-fake",
    ANTHROPIC_BASE_URL: anthropic.url,
    GOOGLE_API_KEY: "fake-google-key",
    GOOGLE_BASE_URL: gemini.url,
    MISTRAL_API_KEY: "fake-mistral-key",
    MISTRAL_BASE_URL: mistral.url,
    PERPLEXITY_API_KEY: "pplx-fake",
    PERPLEXITY_BASE_URL: perplexity.url,
  };
  return {
    env,
    control,
    async stop() {
      await Promise.all([openai, anthropic, gemini, mistral, perplexity].map((s) => s.stop()));
    },
  };
}
