import { describe, expect, test } from "bun:test";
import { constants, createGunzip } from "node:zlib";
import { LONG_ANSWER, modelTexts } from "../../helpers/model-texts.ts";
import type { Sse } from "../../helpers/sse.ts";
import { askReady, type ChatApp, chatApp, runAskedModels, useFakeProviders } from "./chat.helpers.ts";

/**
 * Live streams on the wire (issue 46): a client that sends Accept-Encoding
 * gets its run's events gzip-compressed, and every event still leaves as it
 * is written (each compressed chunk decodes to whole events at once, not
 * when the stream ends), both on the stream of POST /process and on
 * GET /conversation/{id}/events.
 */
const fakes = useFakeProviders();

type Decoded = { events: Sse[]; chunks: number; bytes: number; plainBytes: number; wholeAtEachChunk: boolean };

/** The answer read chunk by chunk as a browser does, gunzipped as it comes; each event with the chunk that made it readable. */
async function readGzipped(res: Response): Promise<Decoded & { readableAt: number[] }> {
  const gunzip = createGunzip({ flush: constants.Z_SYNC_FLUSH });
  let text = "";
  gunzip.on("data", (b: Buffer) => {
    text += b.toString("utf8");
  });
  const reader = res.body!.getReader();
  const events: Sse[] = [];
  const readableAt: number[] = [];
  let chunks = 0;
  let bytes = 0;
  let plainBytes = 0;
  let wholeAtEachChunk = true;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    chunks++;
    bytes += next.value.length;
    await new Promise<void>((resolve) => gunzip.write(next.value, () => resolve()));
    plainBytes += Buffer.byteLength(text);
    // What one chunk decodes to ends on an event's end: nothing of an event waits for the next chunk.
    if (text && !text.endsWith("\n\n")) wholeAtEachChunk = false;
    for (const block of text.split("\n\n").slice(0, -1)) {
      if (block.startsWith(":")) continue;
      const field = (name: string) =>
        block
          .split("\n")
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      events.push({ id: field("id") ? Number(field("id")) : null, event: field("event") ?? "message", data: JSON.parse(field("data") ?? "null") });
      readableAt.push(chunks);
    }
    text = text.slice(text.lastIndexOf("\n\n") + 2);
  }
  return { events, readableAt, chunks, bytes, plainBytes, wholeAtEachChunk };
}

function expectLiveAndWhole(t: ChatApp, res: Response, got: Awaited<ReturnType<typeof readGzipped>>) {
  expect(res.headers.get("content-encoding")).toBe("gzip");
  expect(res.headers.get("vary")).toContain("Accept-Encoding");
  expect(got.wholeAtEachChunk).toBe(true);
  const final = got.events.findIndex((e) => e.event === "final");
  expect(final).toBeGreaterThan(0);
  // The first model text was readable several chunks before the answer: each event was flushed as it came.
  const firstDelta = got.events.findIndex((e) => e.event === "model_delta");
  expect(got.readableAt[firstDelta]!).toBeLessThan(got.readableAt[final]!);
  for (const name of got.events[0]!.data.models as string[]) expect(modelTexts(got.events)[name]).toBe(LONG_ANSWER);
  expect(got.bytes).toBeLessThan(got.plainBytes / 2);
  void t;
}

describe("live streams compressed for clients that accept it", () => {
  test("the stream of POST /process is gzip-compressed, each event readable as soon as it is sent", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ latencyMs: 100, durationMs: 1200, answer: LONG_ANSWER });
    const id = await askReady(t);
    const res = await t.app.request("/api/unisson/process", {
      method: "POST",
      headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", accept: "text/event-stream", "accept-encoding": "gzip, deflate, br" },
      body: JSON.stringify({ conversation_id: id }),
    });
    expectLiveAndWhole(t, res, await readGzipped(res));
  });

  test("GET /conversation/{id}/events is gzip-compressed, each event readable as soon as it is sent", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ latencyMs: 100, durationMs: 1200, answer: LONG_ANSWER });
    const id = await askReady(t);
    const started = t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    await runAskedModels(fakes());
    const res = await t.app.request(`/api/unisson/conversation/${id}/events`, {
      headers: { authorization: `Bearer ${t.token}`, "accept-encoding": "gzip" },
    });
    expectLiveAndWhole(t, res, await readGzipped(res));
    expect((await started).status).toBe(200);
  });
});
