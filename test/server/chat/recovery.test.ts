import { describe, expect, test } from "bun:test";
import { recoverInterruptedRuns } from "../../../src/chat/recovery.ts";
import { askReady, chatApp, remaining, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();

/** What a kill -9 in the middle of final processing leaves: a claimed, charged run still "running". */
function interruptedRun(t: Awaited<ReturnType<typeof chatApp>>, conversationId: number) {
  const turn = t.db.$client.query("SELECT max(id) AS id FROM messages WHERE conversation_id = ? AND sender = 'user'").get(conversationId) as { id: number };
  t.db.$client.run("UPDATE users SET plan_queries = plan_queries - 1 WHERE id = ?", [t.user.id]);
  t.db.$client.run(
    "INSERT INTO processing_runs (conversation_id, turn_message_id, user_id, status, charged, charged_from, created_at) VALUES (?, ?, ?, 'running', 1, 'plan', 0)",
    [conversationId, turn.id, t.user.id],
  );
}

describe("final processing interrupted by a crash", () => {
  test("the next start gives the request back and marks the run failed", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    interruptedRun(t, id);
    expect((await remaining(t)).plan).toBe(4);

    expect(await recoverInterruptedRuns(t.deps)).toBe(1);

    expect((await remaining(t)).plan).toBe(5);
    const run = t.db.$client.query("SELECT status, charged FROM processing_runs").get() as { status: string; charged: number };
    expect(run).toEqual({ status: "failed", charged: 0 });
  });

  test("after recovery the same question can be processed and is charged once", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    interruptedRun(t, id);
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
});
