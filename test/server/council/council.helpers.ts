import { addMember } from "../../../src/council/council.store.ts";
import { loadSecretKey, sealedKey } from "../../../src/council/secret-box.ts";
import type { FakeProviders } from "../../fakes/ai/index.ts";
import type { TestApp } from "../../helpers/app.ts";

/** The seventh member of the tests: a local model served by an OpenAI-compatible server (the fake OpenAI, which answers any model id). */
export const LLAMA = { name: "Llama local", model: "llama3.1", key: "sk-llama-secret-7f3a9c" };

/** Adds it through the store, as the admin API and the CLI do, its key sealed with the app's SECRET_KEY. */
export async function addLlama(t: Pick<TestApp, "db" | "config" | "clock">, fakes: FakeProviders, extra: { synthesisRank?: number } = {}) {
  return await addMember(
    t.db,
    {
      name: LLAMA.name,
      specialty: "Modèle local",
      provider: "openai-compatible",
      model: LLAMA.model,
      baseUrl: fakes.env.OPENAI_BASE_URL,
      ...sealedKey(loadSecretKey(t.config), LLAMA.key),
      priceInEur: 1,
      priceOutEur: 2,
      ...extra,
    },
    t.clock.now(),
  );
}

export type Status = {
  ai_status: Array<{ name: string; available: boolean }>;
  system_operational: boolean;
  web_search: { available: boolean; default: boolean };
};
