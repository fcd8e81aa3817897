import { describe, expect, test } from "bun:test";
import { recoverInterruptedRuns } from "../../../src/chat/recovery.ts";
import { processingRuns } from "../../../src/db/schema/index.ts";
import { SQLITE_ONLY } from "../../helpers/test-database.ts";
import { askReady, chatApp, leftRunning, remaining, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();

describe("final processing interrupted by a crash", () => {
  // Start-up recovery is SQLite's (one server owns the database); on PostgreSQL a dead server's runs are refunded by
  // the sweep of the live ones (run-liveness.ts, test/server/scaling/runs-across-servers.test.ts).
  test.skipIf(SQLITE_ONLY)("the next start gives the request back and marks the run failed", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    await leftRunning(t, id);
    expect((await remaining(t)).plan).toBe(4);

    expect(await recoverInterruptedRuns(t.deps)).toBe(1);

    expect((await remaining(t)).plan).toBe(5);
    const runs = await t.db.select({ status: processingRuns.status, charged: processingRuns.charged }).from(processingRuns);
    expect(runs).toEqual([{ status: "failed", charged: false }]);
  });

  test.skipIf(SQLITE_ONLY)("after recovery the same question can be processed and is charged once", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    await leftRunning(t, id);
    await recoverInterruptedRuns(t.deps);

    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(res.status).toBe(200);
    expect((await remaining(t)).plan).toBe(4);
  });

  test("finished runs are left alone", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(await recoverInterruptedRuns(t.deps)).toBe(0);
    expect((await remaining(t)).plan).toBe(4);
  });

  test.skipIf(!SQLITE_ONLY)("on PostgreSQL the start leaves a running run to the sweep: nothing refunded at start", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    await leftRunning(t, id);
    expect(await recoverInterruptedRuns(t.deps)).toBe(0);
    expect((await remaining(t)).plan).toBe(4);
  });
});
