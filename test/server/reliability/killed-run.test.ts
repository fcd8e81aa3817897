import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { and, count, eq, sum } from "drizzle-orm";
import { closeDb, openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";
import { aiCalls } from "../../../src/db/schema/index.ts";
import { freePort, tempDir } from "../../helpers/binary.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { readSse } from "../../helpers/sse.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";

/**
 * A server killed (kill -9) after its six answers, while the synthesis is
 * still being written: the answers' costs are already in `ai_calls` (each
 * row written as its call ends), so `unisson usage` and `stats` count them;
 * after the restart a client resuming with the Last-Event-ID it had gets the
 * run's `failed` event. SQLite (the restart's recovery; PostgreSQL's sweep is
 * in scaling/runs-across-servers.test.ts).
 */
const fakes = useFakeProviders();
const root = join(import.meta.dir, "..", "..", "..");

function serve(env: Record<string, string>) {
  return Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdout: "ignore",
    stderr: "ignore",
  });
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await Bun.sleep(50)) if (await check().catch(() => false)) return;
  throw new Error(`${what} : pas dans les ${ms} ms`);
}

describe.skipIf(process.env.TEST_DATABASE === "postgres")("a server killed after its answers", () => {
  test("the answers' costs are recorded; after the restart a client resuming with Last-Event-ID gets the failed event", async () => {
    const dir = tempDir("unisson-killed-");
    const file = join(dir.path, "unisson.db");
    const seed = openDb(file);
    await runMigrations(seed);
    const { token } = await makeUser(seed, new Date(), { planQueries: 5 });
    await closeDb(seed);
    const port = freePort();
    const env = { ...fakes().env, AI_TIMEOUT_MS: "60000", HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dir.path, LOG_LEVEL: "warn" };
    const url = `http://127.0.0.1:${port}`;
    const up = () => until("server up", async () => (await fetch(`${url}/api/health`)).ok, 30_000);
    let server = serve(env);
    const db = openDb(file);
    try {
      await up();
      // Answers at once; a synthesis that takes a minute: the server is killed while it is written.
      fakes().control.setAll({ latencyMs: 100, synthesisLatencyMs: 60_000 });
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const chat = await (
        await fetch(`${url}/api/unisson/chat`, { method: "POST", headers, body: JSON.stringify({ message: "Quelle est la capitale de la France ?" }) })
      ).json();
      const id = (chat as { conversation_id: number }).conversation_id;
      const live = await fetch(`${url}/api/unisson/process`, {
        method: "POST",
        headers: { ...headers, accept: "text/event-stream" },
        body: JSON.stringify({ conversation_id: id }),
      });
      const seen = await readSse(live, { stopAfter: (e) => e.event === "synthesis_started" });
      const lastSeen = seen.events.at(-1)!.id!;
      const answers = async () =>
        (
          await db
            .select({ n: count(), eur: sum(aiCalls.costEur) })
            .from(aiCalls)
            .where(and(eq(aiCalls.purpose, "answer"), eq(aiCalls.outcome, "ok")))
        )[0]!;
      await until("six answer rows", async () => (await answers()).n === 6, 10_000);
      server.kill("SIGKILL");
      await server.exited;
      const after = await answers();
      expect(after.n).toBe(6);
      expect(Number(after.eur)).toBeGreaterThan(0);

      server = serve(env);
      await up();
      const resumed = await fetch(`${url}/api/unisson/conversation/${id}/events`, {
        headers: { authorization: `Bearer ${token}`, "last-event-id": String(lastSeen) },
      });
      const events = (await readSse(resumed)).events;
      expect(events.map((e) => e.event)).toEqual(["failed"]);
      expect(events[0]!.id!).toBeGreaterThan(lastSeen);
      expect(events[0]!.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", refunded: true });
    } finally {
      server.kill("SIGKILL");
      await server.exited;
      await closeDb(db);
      dir.cleanup();
    }
  }, 90_000);
});
