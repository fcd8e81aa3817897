import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { processingRuns } from "../../../src/db/schema/index.ts";
import { askReady, type ChatApp, chatApp, remaining, useFakeProviders } from "./chat.helpers.ts";
import { acceptRunEndings, refuseRunEndings } from "./refuse-writes.ts";

/**
 * The run's final write refused by the database (a trigger stands in for a
 * failing disk or a lost connection: it refuses any write that ends a run
 * while a row sits in `block_run_endings`), on SQLite and PostgreSQL: the
 * write is retried; if it still cannot be written, the run is failed and
 * refunded as soon as the database accepts it again, logged at error with
 * the run id. (test/server/reliability/final-write.test.ts does it with
 * another process holding SQLite's write lock.)
 */
const fakes = useFakeProviders();
const SLOW_BOX = { AI_TIMEOUT_MS: "12000" };

async function runOf(t: ChatApp, id: number) {
  const [run] = await t.db.select().from(processingRuns).where(eq(processingRuns.conversationId, id));
  return run!;
}

describe("a final write the database refuses", () => {
  test("refused past every retry: 503, then failed and refunded once the database accepts it, logged at error with the run id", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    await refuseRunEndings(t);
    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(res.status).toBe(503);
    const run = await runOf(t, id);
    expect(run.status).toBe("running");
    expect(t.log.lines.some((l) => l.includes("ERROR") && l.includes("run outcome not written") && l.includes(`run=${run.id}`))).toBe(true);
    await acceptRunEndings(t);
    let now = await runOf(t, id);
    for (let i = 0; i < 60 && now.status === "running"; i++, await Bun.sleep(100)) now = await runOf(t, id);
    expect([now.status, now.charged]).toEqual(["failed", false]);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    // Its failed event is stored: a client coming back learns the run's end.
    expect((now.events as Array<{ type: string }>).at(-1)?.type).toBe("failed");
  }, 30_000);

  test("refused once, then accepted: the retried write stores the answer, charged once", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    await refuseRunEndings(t);
    let release!: () => void;
    fakes().control.set("claudeOpus", { synthesisPause: { afterPieces: 1, until: new Promise<void>((r) => (release = r)) } });
    const pending = t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    for (let i = 0; i < 500 && fakes().control.callsOf("synthesis").length === 0; i++) await Bun.sleep(10);
    release();
    // The first attempt meets the trigger; the next one, 500 ms later, does not.
    for (let i = 0; i < 500 && !t.log.lines.some((l) => l.includes("run outcome not written, tried again")); i++) await Bun.sleep(10);
    await acceptRunEndings(t);
    const res = await pending;
    expect(res.status).toBe(200);
    expect([(await runOf(t, id)).status, (await runOf(t, id)).charged]).toEqual(["done", true]);
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
  }, 30_000);
});
