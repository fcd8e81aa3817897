import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { closeDb } from "../../../src/db/client.ts";
import { createTestApp } from "../../helpers/app.ts";
import { freePort, tempDir } from "../../helpers/binary.ts";
import { runCliAsync } from "../../helpers/cli.ts";
import { freshPostgresDatabase } from "../../helpers/postgres.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";

/**
 * Moving over, as an operator would: a SQLite server where a user registered
 * and asked a question, stopped; `unisson db copy --to postgres://…`; a server
 * on PostgreSQL. The user logs in with the old password and finds the
 * conversation and its answer. PostgreSQL only (TEST_DATABASE=postgres: the
 * SQLite server is another process, this process is on PostgreSQL).
 */
const fakes = useFakeProviders();
const dir = tempDir("unisson-moved-");
afterAll(() => dir.cleanup());

const PASSWORD = "Nuage-Bleu-42";

/** The SQLite server in its own process, as an operator runs it. */
async function sqliteServer() {
  const port = freePort();
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    cwd: join(import.meta.dir, "..", "..", ".."),
    env: {
      PATH: process.env.PATH ?? "",
      ...fakes().env,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dir.path,
      LOG_LEVEL: "warn",
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(100)) {
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { proc, url };
    if (proc.exitCode !== null) break;
  }
  proc.kill();
  throw new Error(`SQLite server did not start: ${await new Response(proc.stderr).text()}`);
}

async function post(url: string, path: string, json: unknown, token?: string) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe.skipIf(!onPostgres)("a SQLite installation moved to PostgreSQL", () => {
  test("the user logs in on PostgreSQL with the old password and finds the conversation and its answer", async () => {
    const target = await freshPostgresDatabase();
    if (!target) throw new Error("no PostgreSQL for this test");
    try {
      const sqlite = await sqliteServer();
      let answer: string;
      let conversationId: number;
      try {
        const reg = await post(sqlite.url, "/api/auth/register", { first_name: "Claire", last_name: "Dupont", email: "claire@example.fr", password: PASSWORD });
        expect(reg.status).toBe(200);
        const chat = await post(sqlite.url, "/api/unisson/chat", { message: "Quelle est la capitale de la France ?" }, reg.body.token);
        expect(chat.status).toBe(200);
        conversationId = chat.body.conversation_id;
        const done = await post(sqlite.url, "/api/unisson/process", { conversation_id: conversationId }, reg.body.token);
        expect(done.status).toBe(200);
        answer = done.body.final_response;
        expect(answer.length).toBeGreaterThan(0);
      } finally {
        sqlite.proc.kill("SIGTERM");
        await sqlite.proc.exited;
      }

      const copy = await runCliAsync(["db", "copy", "--to", target.url], dir.path);
      expect(copy.code).toBe(0);

      const pg = await createTestApp({ env: { ...fakes().env, DATABASE_URL: target.url } });
      const wrong = await pg.call("POST", "/api/auth/login", { json: { email: "claire@example.fr", password: "Pas-Le-Bon-77" } });
      expect(wrong.status).toBe(401);
      const login = await pg.call("POST", "/api/auth/login", { json: { email: "claire@example.fr", password: PASSWORD } });
      expect(login.status).toBe(200);
      const list = await pg.call("GET", "/api/unisson/history", { token: login.body.token });
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).toContain(`"id":${conversationId}`);
      const conversation = await pg.call("GET", `/api/unisson/conversation/${conversationId}`, { token: login.body.token });
      expect(conversation.status).toBe(200);
      expect(conversation.body.messages.map((m: { content: string }) => m.content)).toContain(answer);
      await closeDb(pg.db);
    } finally {
      await target.drop();
    }
  }, 60_000);
});
