import { afterAll, afterEach, beforeAll } from "bun:test";
import { FakePages } from "../../fakes/web/pages.ts";
import { FakeSearxng } from "../../fakes/web/searxng.fake.ts";
import type { TestEnv } from "../../helpers/app.ts";
import type { FakeProviders } from "../../fakes/ai/index.ts";
import { type ChatApp, chatApp } from "../chat/chat.helpers.ts";

/** One fake SearXNG per test file, its results and failures reset between tests. */
export function useFakeSearxng(): () => FakeSearxng {
  let searx: FakeSearxng | undefined;
  beforeAll(() => {
    searx = new FakeSearxng();
  });
  afterEach(() => searx?.reset());
  afterAll(async () => {
    await searx?.stop();
  });
  return () => searx!;
}

/** Fake web pages for the test file, on a loopback address (127.0.0.1 unless `hostname` says another). */
export function useFakePages(hostname = "127.0.0.1"): () => FakePages {
  let pages: FakePages | undefined;
  beforeAll(() => {
    pages = new FakePages(hostname);
  });
  afterAll(async () => {
    await pages?.stop();
  });
  return () => pages!;
}

/** An app whose council searches the fake SearXNG; pages on the loopback are readable unless `env` says otherwise. */
export function webApp(fakes: FakeProviders, searx: FakeSearxng, env: TestEnv = {}): Promise<ChatApp> {
  return chatApp(fakes, { env: { WEB_SEARCH_URL: searx.url, WEB_FETCH_ALLOW_PRIVATE: "true", ...env } });
}

/** A question asked with web search on (POST /chat, then POST /process for its answer). */
export async function askWithWeb(t: ChatApp, message = "Quel est le chiffre du jour ?", web_search = true) {
  const chat = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message, web_search } });
  if (chat.status !== 200) return { chat, answer: null };
  const answer = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: chat.body.conversation_id } });
  return { chat, answer };
}
