import { afterEach, describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { readSse } from "../../helpers/sse.ts";
import { askReady, type ChatApp, chatApp, useFakeProviders } from "./chat.helpers.ts";

/**
 * Live event streams are bounded: at most 20 open per user, and a
 * server-wide ceiling (LIVE_STREAMS_MAX); the next gets a French 429, and a
 * stream the client closed frees its place. Over real HTTP, so that a
 * closed connection is a real one.
 */
const fakes = useFakeProviders();
const servers: Array<{ stop(force?: boolean): unknown }> = [];
const opened: AbortController[] = [];
afterEach(() => {
  for (const a of opened.splice(0)) a.abort();
  for (const s of servers.splice(0)) s.stop(true);
});

/** A run that stays live for the whole test (answers take 20 s), started by a /process stream kept open; its events URL. */
async function liveRun(t: ChatApp, token = t.token) {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req, srv) => t.app.fetch(req, srv), idleTimeout: 0 });
  servers.push(server);
  fakes().control.setAll({ latencyMs: 20_000 });
  const id = await askReady({ ...t, token });
  const run = new AbortController();
  opened.push(run);
  const res = await fetch(`http://127.0.0.1:${server.port}/api/unisson/process`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ conversation_id: id }),
    signal: run.signal,
  });
  expect(res.status).toBe(200);
  await readSse(res, { stopAfter: (e) => e.event === "run_started" });
  return { url: `http://127.0.0.1:${server.port}/api/unisson/conversation/${id}/events` };
}

async function openStream(url: string, token: string) {
  const abort = new AbortController();
  opened.push(abort);
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" }, signal: abort.signal });
  return { res, close: () => abort.abort() };
}

const ENV = { AI_TIMEOUT_MS: "60000", AI_BUDGET_MS: "120000" };

describe("bounded live streams", () => {
  test("the 21st open stream of one user gets a French 429 with Retry-After", async () => {
    const t = await chatApp(fakes(), { env: ENV });
    const { url } = await liveRun(t);
    const streams = [];
    for (let i = 0; i < 20; i++) streams.push(await openStream(url, t.token));
    expect(streams.map((s) => s.res.status)).toEqual(Array(20).fill(200));
    const refused = await openStream(url, t.token);
    expect(refused.res.status).toBe(429);
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.res.json()) as { detail: string }).detail).toBe(
      "Trop de réponses suivies en direct en même temps : fermez d'autres onglets Unisson puis réessayez.",
    );
  });

  test("a closed tab frees its stream: after closing one of 20, the next opens", async () => {
    const t = await chatApp(fakes(), { env: ENV });
    const { url } = await liveRun(t);
    const streams = [];
    for (let i = 0; i < 20; i++) streams.push(await openStream(url, t.token));
    expect((await openStream(url, t.token)).res.status).toBe(429);
    streams[0]!.close();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await Bun.sleep(20);
      status = (await openStream(url, t.token)).res.status;
    }
    expect(status).toBe(200);
  });

  test("another user is not held back by one user's 20 streams", async () => {
    const t = await chatApp(fakes(), { env: ENV });
    const { url } = await liveRun(t);
    for (let i = 0; i < 20; i++) await openStream(url, t.token);
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    const theirs = await liveRun(t, other.token);
    expect((await openStream(theirs.url, other.token)).res.status).toBe(200);
  });

  test("the server-wide ceiling (LIVE_STREAMS_MAX) answers 429 with its own French text", async () => {
    const t = await chatApp(fakes(), { env: { ...ENV, LIVE_STREAMS_MAX: "3" } });
    const { url } = await liveRun(t);
    for (let i = 0; i < 3; i++) expect((await openStream(url, t.token)).res.status).toBe(200);
    const refused = await openStream(url, t.token);
    expect(refused.res.status).toBe(429);
    expect(((await refused.res.json()) as { detail: string }).detail).toBe(
      "Le serveur suit trop de réponses en direct en ce moment. Veuillez réessayer dans quelques instants.",
    );
  });
});
