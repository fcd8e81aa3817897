import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freePort, tempDir } from "../../helpers/binary.ts";
import { createTestApp, TEST_SECRET_KEY, type TestApp } from "../../helpers/app.ts";
import { runCliAsync } from "../../helpers/cli.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { freshPostgresDatabase, pgClient } from "../../helpers/postgres.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { runJobsOnce } from "../../../src/jobs/scheduler.ts";
import type { Job } from "../../../src/jobs/job.ts";
import { askReady, useFakeProviders } from "../chat/chat.helpers.ts";

/**
 * Two servers on one PostgreSQL database, through HTTP: what one writes the
 * other reads, a request is charged once however the calls race over both,
 * the CLI works on the same data, and servers started together on an empty
 * database all come up. PostgreSQL only (TEST_DATABASE=postgres).
 */
const fakes = useFakeProviders();

async function twoServers(): Promise<[TestApp, TestApp]> {
  const a = await createTestApp({ env: { ...fakes().env, AI_TIMEOUT_MS: "5000" } });
  const b = await createTestApp({ env: { ...fakes().env, AI_TIMEOUT_MS: "5000", DATABASE_URL: a.config.databaseUrl! } });
  return [a, b];
}

async function count(url: string, query: string): Promise<number> {
  const sql = pgClient(url);
  try {
    const [row] = await sql.unsafe(query);
    return Number(row.n);
  } finally {
    await sql.close();
  }
}

describe.skipIf(!onPostgres)("two servers, one PostgreSQL database", () => {
  test("a session opened on one server is valid on the other, and logging out on the other ends it", async () => {
    const [a, b] = await twoServers();
    const reg = await a.call("POST", "/api/auth/register", {
      json: { first_name: "Claire", last_name: "Dupont", email: "claire@example.fr", password: "Nuage-Bleu-42" },
    });
    expect(reg.status).toBe(200);
    const me = await b.call("GET", "/api/auth/me", { token: reg.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("claire@example.fr");
    expect((await b.call("POST", "/api/auth/logout", { token: reg.body.token })).status).toBe(200);
    expect((await a.call("GET", "/api/auth/me", { token: reg.body.token })).status).toBe(401);
  });

  test("a question asked on one server is answered there and listed, with its answer, on the other", async () => {
    const [a, b] = await twoServers();
    const { user, token } = await makeUser(a.db, a.clock.now(), { planQueries: 5 });
    const id = await askReady({ ...a, user, token });
    const done = await a.call("POST", "/api/unisson/process", { token, json: { conversation_id: id } });
    expect(done.status).toBe(200);
    const list = await b.call("GET", "/api/unisson/history", { token });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(`"id":${id}`);
    const messages = await b.call("GET", `/api/unisson/conversation/${id}`, { token });
    expect(messages.status).toBe(200);
    expect(messages.body.messages.at(-1).sender).toBe("assistant");
  });

  test("six /process at once over both servers charge one request and answer one run", async () => {
    const [a, b] = await twoServers();
    const { user, token } = await makeUser(a.db, a.clock.now(), { planQueries: 5 });
    const id = await askReady({ ...a, user, token });
    const calls = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? b : a).call("POST", "/api/unisson/process", { token, json: { conversation_id: id } })),
    );
    expect(calls.filter((c) => c.status >= 500)).toEqual([]);
    const url = a.config.databaseUrl!;
    expect(await count(url, `SELECT plan_queries AS n FROM users WHERE id = ${user.id}`)).toBe(4);
    expect(await count(url, `SELECT count(*) AS n FROM processing_runs WHERE conversation_id = ${id} AND charged`)).toBe(1);
  });

  test("the CLI with DATABASE_URL sees the servers' accounts, and what it changes the servers see", async () => {
    const [a, b] = await twoServers();
    const { user, token } = await makeUser(a.db, a.clock.now(), { planQueries: 5 });
    const dir = tempDir("unisson-cli-pg-");
    try {
      const env = { DATABASE_URL: a.config.databaseUrl! };
      const listed = await runCliAsync(["users", "list", "--json"], dir.path, env);
      expect(listed.stderr).toBe("");
      expect(JSON.stringify(listed.json())).toContain(user.email);
      const granted = await runCliAsync(["users", "grant", user.email, "7"], dir.path, env);
      expect(granted.stderr).toBe("");
      expect(granted.code).toBe(0);
      const me = await b.call("GET", "/api/auth/me", { token });
      expect(me.body.remaining_queries).toBe(12);
    } finally {
      dir.cleanup();
    }
  });

  test("`unisson backup` on PostgreSQL answers in French to use pg_dump, and writes no file", async () => {
    const [a] = await twoServers();
    const dir = tempDir("unisson-backup-pg-");
    try {
      const r = await runCliAsync(["backup", join(dir.path, "copie.db")], dir.path, { DATABASE_URL: a.config.databaseUrl! });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Utilisez pg_dump");
      expect(await Bun.file(join(dir.path, "copie.db")).exists()).toBe(false);
    } finally {
      dir.cleanup();
    }
  });

  test("a timed job's tick runs on one server at a time: the other skips it while the first holds the job's advisory lock", async () => {
    const [a, b] = await twoServers();
    let runs = 0;
    const job: Job = {
      name: "renewals",
      everyMs: 60_000,
      async run() {
        runs += 1;
        await Bun.sleep(300);
        return { done: true };
      },
    };
    const [ta, tb] = await Promise.all([runJobsOnce(a.deps, [job]), runJobsOnce(b.deps, [job])]);
    expect(runs).toBe(1);
    expect([ta.renewals, tb.renewals]).toContainEqual({ done: true });
    expect([ta.renewals, tb.renewals]).toContainEqual({ skipped: "another server is running it" });
    // The lock is let go with the tick: the next tick runs again.
    expect(await runJobsOnce(b.deps, [job])).toEqual({ renewals: { done: true } });
    expect(runs).toBe(2);
  });

  test("two servers started at the same moment on an empty database both come up (migrations under the advisory lock)", async () => {
    const db = (await freshPostgresDatabase())!;
    const dir = tempDir("unisson-serve-pg-");
    const root = join(import.meta.dir, "..", "..", "..");
    const servers = [freePort(), freePort()].map((port) => ({
      port,
      proc: Bun.spawn([process.execPath, "src/main.ts", "serve"], {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? "",
          HOST: "127.0.0.1",
          PORT: String(port),
          DATABASE_URL: db.url,
          SECRET_KEY: TEST_SECRET_KEY,
          DATA_DIR: dir.path,
          LOG_LEVEL: "warn",
        },
        stdout: "ignore",
        stderr: "pipe",
      }),
    }));
    try {
      const up = await Promise.all(
        servers.map(async ({ port, proc }) => {
          for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(100)) {
            if (proc.exitCode !== null) return `exited: ${await new Response(proc.stderr).text()}`;
            try {
              const r = await fetch(`http://127.0.0.1:${port}/api/health`);
              if (r.ok) return "up";
            } catch {
              // not listening yet
            }
          }
          return "timeout";
        }),
      );
      expect(up).toEqual(["up", "up"]);
      expect(await count(db.url, "SELECT count(*) AS n FROM drizzle.__drizzle_migrations")).toBeGreaterThan(0);
    } finally {
      for (const { proc } of servers) proc.kill();
      await Promise.all(servers.map(({ proc }) => proc.exited));
      dir.cleanup();
      await db.drop();
    }
  }, 60_000);
});
