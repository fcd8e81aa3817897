import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { type FakeProviders, startFakeProviders } from "../../fakes/ai/index.ts";
import { ensureBinary, freePort, runBinary, startBinary, tempDir } from "../../helpers/binary.ts";

/**
 * One server per database, with the compiled executable: a second `serve`
 * on the same data folder stops before touching anything (the first one's
 * answer in flight stays charged and running), the CLI still works beside
 * it, and after a real kill -9 the next start refunds that answer.
 */
setDefaultTimeout(120_000);

let ai: FakeProviders;
let dir: ReturnType<typeof tempDir>;
let env: Record<string, string>;
beforeAll(() => {
  ai = startFakeProviders();
  // The synthesis never comes back in time: the final processing stays "running".
  ai.control.setAll({ synthesisLatencyMs: 600_000 });
  dir = tempDir("unisson-lease-");
  env = { DATA_DIR: dir.path, PUBLIC_URL: "http://localhost:3000", LOG_LEVEL: "info", LOG_FORMAT: "json", AI_TIMEOUT_MS: "600000", ...ai.env };
  ensureBinary();
});
afterAll(async () => {
  await ai.stop();
  dir.cleanup();
});

function read<T>(sql: string): T {
  const db = new Database(join(dir.path, "unisson.db"), { readonly: true });
  try {
    return db.query(sql).get() as T;
  } finally {
    db.close();
  }
}

async function json(url: string, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { "content-type": "application/json", "x-request-id": `essai-${path.split("/").pop()}` };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  return (await res.json()) as any;
}

describe("one server per database", () => {
  test("a second server is refused and leaves the first one's answer alone; after kill -9 the next start refunds it", async () => {
    const first = await startBinary(env, dir.path);
    const { token } = await json(first.url, "/api/auth/register", {
      email: "bail@example.fr",
      password: "Nuage-Bleu-42",
      first_name: "Éva",
      last_name: "Bail",
    });
    const chat = await json(first.url, "/api/unisson/chat", { message: "Quelle est la capitale de la France ?" }, token);
    void json(first.url, "/api/unisson/process", { conversation_id: chat.conversation_id }, token).catch(() => undefined);
    const deadline = Date.now() + 20_000;
    while (!read<{ charged: number } | null>("SELECT charged FROM processing_runs WHERE status = 'running' AND charged = 1") && Date.now() < deadline)
      await Bun.sleep(50);
    const quota = read<{ plan_queries: number }>("SELECT plan_queries FROM users");

    const second = Bun.spawnSync([ensureBinary(), "serve"], {
      cwd: dir.path,
      env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: String(freePort()), ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(second.exitCode).toBe(1);
    const lines = second.stderr.toString().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^Un autre serveur Unisson utilise déjà cette base \\(pid ${first.proc.pid} sur .+, ${first.url.replace(/\./g, "\\.")}, dernier signe de vie il y a \\d+ s\\) : arrêtez-le avant d'en démarrer un second\\.$`,
      ),
    );
    expect(read<{ status: string; charged: number }>("SELECT status, charged FROM processing_runs")).toEqual({ status: "running", charged: 1 });
    expect(read<{ plan_queries: number }>("SELECT plan_queries FROM users")).toEqual(quota);
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);

    // The CLI works beside the running server.
    const list = runBinary(["users", "list", "--json"], env, dir.path);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).total).toBe(1);

    first.proc.kill("SIGKILL");
    await first.proc.exited;
    // LOG_FORMAT=json: every stdout line is one JSON object; the start line says what is set up; requests carry their id.
    const logged = (await first.stdout())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(logged.find((l) => l.msg === "configuration")).toMatchObject({
      level: "info",
      payments: "désactivés (STRIPE_SECRET_KEY absent)",
      models_missing: "aucun",
    });
    expect(logged.find((l) => l.msg === "http" && l.path === "/api/auth/register")).toMatchObject({ request_id: "essai-register", status: 200 });
    const third = await startBinary(env, dir.path);
    try {
      expect(read<{ status: string; charged: number }>("SELECT status, charged FROM processing_runs")).toEqual({ status: "failed", charged: 0 });
      expect(read<{ plan_queries: number }>("SELECT plan_queries FROM users").plan_queries).toBe(quota.plan_queries + 1);
      expect(read<{ pid: number }>("SELECT pid FROM server_lease").pid).toBe(third.proc.pid);
    } finally {
      third.proc.kill("SIGTERM");
      await third.proc.exited;
    }
    // A clean stop frees the database.
    expect(read<unknown>("SELECT * FROM server_lease")).toBeNull();
  });
});
