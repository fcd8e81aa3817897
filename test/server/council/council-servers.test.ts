import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { closeDb, openDb } from "../../../src/db/client.ts";
import { currentCouncil } from "../../../src/council/council-runtime.ts";
import { updateMember } from "../../../src/council/council.store.ts";
import { systemClock } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { useDataDirs } from "../../helpers/cli.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { askReady, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp } from "../openai/openai.helpers.ts";
import { addLlama, LLAMA, type Status } from "./council.helpers.ts";

/**
 * The council across servers and runs: a change made on one server (or by
 * the CLI, another process) reaches the other server's next question within
 * 5 s (PostgreSQL: NOTIFY); a run in progress keeps the council it started with.
 */
const fakes = useFakeProviders();
const dataDir = useDataDirs();
const PROCESS = "/api/unisson/process";

/** Polls until `check` holds, 5 s at most: the council's promise to the other servers. */
async function within5s(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const end = performance.now() + 5_000; performance.now() < end; await Bun.sleep(50)) if (await check()) return;
  throw new Error(`not within 5 s: ${what}`);
}

describe.skipIf(!onPostgres)("two servers on one PostgreSQL database", () => {
  test("a seventh member added on server A answers the next question asked on server B, no restart", async () => {
    const env = { ...fakes().env, AI_TIMEOUT_MS: "15000" };
    const a = await createTestApp({ env, deps: { clock: systemClock } });
    const b = await createTestApp({ env: { ...env, DATABASE_URL: a.config.databaseUrl! }, deps: { clock: systemClock } });
    const { token } = await makeUser(a.db, new Date(), { planQueries: 5 });
    // B has read the council already (and listens for changes).
    expect(((await b.call("GET", "/api/unisson/status")).body as Status).ai_status).toHaveLength(6);
    await addLlama(a, fakes());
    await within5s("B lists the seventh member", async () =>
      ((await b.call("GET", "/api/unisson/status")).body as Status).ai_status.some((s) => s.name === LLAMA.name),
    );
    const chat = await b.call("POST", "/api/unisson/chat", { token, json: { message: "Quelle est la capitale de la France ?" } });
    const res = await b.call("POST", PROCESS, { token, json: { conversation_id: chat.body.conversation_id } });
    expect(res.status).toBe(200);
    expect(res.body.available_ais).toContain(LLAMA.name);
    expect(
      fakes()
        .control.callsOf("answer")
        .map((c) => c.model),
    ).toContain(LLAMA.model);
  });
});

describe.skipIf(onPostgres)("SQLite: the CLI beside the server", () => {
  test("a member added by another process on the same file answers the server's next question", async () => {
    const file = join(await dataDir(), "unisson.db");
    const t = await chatApp(fakes(), { env: { DATABASE_PATH: file } });
    await askReady(t);
    // Another connection to the file, as `unisson council add` would open it.
    const cli = openDb(file);
    try {
      await addLlama({ db: cli, config: t.config, clock: t.clock }, fakes());
    } finally {
      await closeDb(cli);
    }
    fakes().control.calls = [];
    const res = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: await askReady(t, "Et la capitale de l'Espagne ?") } });
    expect(res.body.available_ais).toContain(LLAMA.name);
    expect(
      fakes()
        .control.callsOf("answer")
        .map((c) => c.model),
    ).toContain(LLAMA.model);
  });
});

describe("runs and the council's changes", () => {
  test("a run in progress keeps the council it started with; the next question sees the change", async () => {
    const t = await chatApp(fakes());
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    fakes().control.setAll({ synthesisPause: { afterPieces: 1, until: held } });
    const id = await askReady(t);
    const running = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    while (fakes().control.callsOf("synthesis").length === 0) await Bun.sleep(5);
    await updateMember(t.db, "Sonar Pro", { name: "Sonar Reasoning" }, t.clock.now());
    expect((await currentCouncil(t.deps)).members.map((m) => m.name)).toContain("Sonar Reasoning");
    release();
    const done = await running;
    expect(done.status).toBe(200);
    expect(done.body.available_ais).toContain("Sonar Pro");
    expect(done.body.available_ais).not.toContain("Sonar Reasoning");
    fakes().control.reset();
    const next = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: await askReady(t, "Et la capitale de l'Italie ?") } });
    expect(next.body.available_ais).toContain("Sonar Reasoning");
  });

  test("/v1/models names the council as it is now, renames included", async () => {
    const t = await apiApp(fakes());
    await updateMember(t.db, "Gemini Pro", { name: "Gemini 3 Pro" }, t.clock.now());
    const page = await t.openai.models.list();
    const [model] = page.data as unknown as Array<{ id: string; council: Array<{ name: string; provider: string; available: boolean }> }>;
    expect(model!.id).toBe("unisson");
    expect(model!.council.map((m) => m.name)).toEqual(["GPT-4", "Claude 3 Haiku", "Claude Opus 4.1", "Gemini 3 Pro", "Mistral Large", "Sonar Pro"]);
  });
});
