import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { onPostgres } from "../../helpers/test-database.ts";
import { users } from "../../../src/db/schema/index.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { twoServers } from "./two-servers.helpers.ts";

/**
 * « Arrêter » across servers on one PostgreSQL database: the stop is sent to
 * server B, the run executes on server A; A's upstream calls are aborted, the
 * run is refunded, and B takes the next message at once. PostgreSQL only.
 */
const fakes = useFakeProviders();

describe.skipIf(!onPostgres)("stopping a run from another server (PostgreSQL)", () => {
  test("a stop sent to server B stops the run executing on server A: aborted upstream, refunded, next message accepted", async () => {
    const [a, b] = await twoServers(fakes());
    const asked = await a.call("POST", "/api/unisson/chat", { token: a.token, json: { message: "Quelle est la capitale de la France ?" } });
    const id = asked.body.conversation_id;
    fakes().control.setAll({ latencyMs: 20_000 });
    const pending = a.call("POST", "/api/unisson/process", { token: a.token, json: { conversation_id: id } });
    while (fakes().control.callsOf("answer").length < 6) await Bun.sleep(5);
    expect(a.deps.ai.live.size).toBe(1);
    expect(b.deps.ai.live.size).toBe(0);

    const res = await b.call("POST", `/api/unisson/conversation/${id}/stop`, { token: b.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ conversation_id: id, status: "stopped", refunded: true });
    expect((await pending).status).toBe(409);
    for (const end = performance.now() + 1_000; fakes().control.abortedCalls("answer").length < 6 && performance.now() < end; ) await Bun.sleep(10);
    expect(fakes().control.abortedCalls("answer")).toHaveLength(6);
    const [row] = await b.db.select({ plan: users.planQueries }).from(users).where(eq(users.id, b.userId));
    expect(row!.plan).toBe(5);

    fakes().control.reset();
    const next = await b.call("POST", "/api/unisson/chat", { token: b.token, json: { conversation_id: id, message: "Et celle de l'Italie ?" } });
    expect(next.status).toBe(200);
  });
});
