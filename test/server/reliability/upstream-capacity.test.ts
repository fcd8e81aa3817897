import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { type FakeProviders, startFakeProviders } from "../../fakes/ai/index.ts";
import { ensureBinary, startBinary, tempDir } from "../../helpers/binary.ts";

/**
 * Issue 46: the compiled executable started WITHOUT BUN_CONFIG_MAX_HTTP_REQUESTS
 * (Bun's fetch then runs 256 requests at once and queues the rest) carries
 * more live model calls than that cap: 50 answers of six members, 300 calls
 * streaming at once, each writing for 4 s. Before, the 44 calls past the cap
 * waited in Bun's queue, were abandoned at the stall limit (3 s here) as if
 * their model were silent, and opened every model's breaker: answers failed
 * and the service said « maintenance » to everyone.
 */
setDefaultTimeout(120_000);

const RUNS = 50;
let ai: FakeProviders;
let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  ai = startFakeProviders();
  ai.control.setAll({ durationMs: 4000, synthesisDurationMs: 0 });
  dir = tempDir("unisson-capacity-");
  ensureBinary();
});
afterAll(async () => {
  await ai.stop();
  dir.cleanup();
});

async function call(url: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}${path}`, body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

describe("more live model calls than Bun's default HTTP client cap, without BUN_CONFIG_MAX_HTTP_REQUESTS", () => {
  test("50 answers of six models at once all succeed and the service stays operational", async () => {
    const env = {
      DATA_DIR: dir.path,
      PUBLIC_URL: "http://localhost:3000",
      // A 3 s stall limit: a call queued behind the cap for the 4 s of another's answer looked silent.
      AI_TIMEOUT_MS: "9000",
      AI_SOFT_DEADLINE_MS: "30000",
      CHAT_LIMIT_PER_10_MIN: "1000",
      CHAT_LIMIT_PER_DAY: "1000",
      TRIAL_CHAT_LIMIT_PER_DAY: "1000",
      ...ai.env,
    };
    expect(env).not.toHaveProperty("BUN_CONFIG_MAX_HTTP_REQUESTS");
    const server = await startBinary(env, dir.path);
    try {
      const { token } = (
        await call(server.url, "/api/auth/register", { email: "flux@example.fr", password: "Nuage-Bleu-42", first_name: "Léa", last_name: "Flux" })
      ).body;
      const db = new Database(join(dir.path, "unisson.db"));
      db.run("UPDATE users SET plan_queries = 1000");
      db.close();
      const ids: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const chat = await call(server.url, "/api/unisson/chat", { message: `Quelle est la capitale de la France ? (${i})` }, token);
        expect(chat.status).toBe(200);
        ids.push(chat.body.conversation_id);
      }
      // The service's state, read all along the answers: the breakers opened for about a second, between the stalls (3 s) and the first answers (4 s).
      let running = true;
      const states: boolean[] = [];
      const watch = (async () => {
        while (running) {
          states.push((await call(server.url, "/api/unisson/status")).body.system_operational);
          await Bun.sleep(50);
        }
      })();
      const done = await Promise.all(ids.map((id) => call(server.url, "/api/unisson/process", { conversation_id: id }, token)));
      running = false;
      await watch;
      expect(done.filter((d) => d.status !== 200).map((d) => `${d.status} ${d.body.detail}`)).toEqual([]);
      expect(states.filter((operational) => !operational)).toEqual([]);
      const read = new Database(join(dir.path, "unisson.db"), { readonly: true });
      const answers = read.query("SELECT outcome, count(*) AS n FROM ai_calls WHERE purpose = 'answer' GROUP BY outcome").all();
      read.close();
      expect(answers).toEqual([{ outcome: "ok", n: RUNS * 6 }]);
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
  });
});
