import { describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { recoverInterruptedRuns } from "../../../src/chat/recovery.ts";
import { acquireLease } from "../../../src/system/lease.ts";
import { askReady, chatApp, remaining, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();

/** A charged run still "running", created at `at`. */
function runningRun(t: Awaited<ReturnType<typeof chatApp>>, conversationId: number, at: number) {
  const turn = t.db.$client.query("SELECT max(id) AS id FROM messages WHERE conversation_id = ? AND sender = 'user'").get(conversationId) as { id: number };
  t.db.$client.run("UPDATE users SET plan_queries = plan_queries - 1 WHERE id = ?", [t.user.id]);
  t.db.$client.run(
    "INSERT INTO processing_runs (conversation_id, turn_message_id, user_id, status, charged, charged_from, created_at) VALUES (?, ?, ?, 'running', 1, 'plan', ?)",
    [conversationId, turn.id, t.user.id, at],
  );
}

describe("recovery and the server lease", () => {
  test("runs started after this server took the lease are its own: left alone", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    t.deps.lease = await acquireLease(t.db, t.clock.now(), null);
    runningRun(t, id, t.clock.now().getTime() + 1);
    expect(await recoverInterruptedRuns(t.deps)).toBe(0);
    expect((await remaining(t)).plan).toBe(4);
  });

  test("runs of another live server on the database are not touched", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    runningRun(t, id, 0);
    const now = t.clock.now().getTime();
    // A live process of this host (this test runner's parent) holds the lease.
    t.db.$client.run(
      "INSERT INTO server_lease (id, holder, hostname, pid, url, acquired_at, heartbeat_at, expires_at) VALUES (1, 'autre', ?, ?, NULL, ?, ?, ?)",
      [hostname(), process.ppid, now, now, now + 60_000],
    );
    expect(await recoverInterruptedRuns(t.deps)).toBe(0);
    expect((await remaining(t)).plan).toBe(4);
  });

  test("runs from before this server's lease (a previous holder that died) are refunded", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    runningRun(t, id, 0);
    t.deps.lease = await acquireLease(t.db, t.clock.now(), null);
    expect(await recoverInterruptedRuns(t.deps)).toBe(1);
    expect((await remaining(t)).plan).toBe(5);
  });
});
