import { describe, expect, test } from "bun:test";
import { HOUR } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { seedConversation } from "../history/history.helpers.ts";

/**
 * The data export and the conversation export are streamed as they are
 * read, one at a time per user, at most 5 an hour per user (French 429).
 */
async function setup() {
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now());
  const h = { ...t, user, token };
  const conversationId = await seedConversation(h, "Comment tailler un rosier ?", "En fin d'hiver, au-dessus d'un œil.");
  const get = (path: string) => t.app.request(path, { headers: { authorization: `Bearer ${token}` } });
  return { ...h, conversationId, get };
}

const DATA = "/api/auth/export";

/** Five exports of `path` read to their end (each 200), then the sixth's answer. */
async function sixth(t: Awaited<ReturnType<typeof setup>>, path: string): Promise<Response> {
  for (let i = 0; i < 5; i++) {
    const res = await t.get(path);
    expect(res.status).toBe(200);
    await res.text();
  }
  return await t.get(path);
}

async function detail(res: Response): Promise<string> {
  return ((await res.json()) as { detail: string }).detail;
}

describe("data export limits", () => {
  test("the sixth data export in an hour answers a French 429 with Retry-After; an hour later it opens again", async () => {
    const t = await setup();
    const refused = await sixth(t, DATA);
    expect(refused.status).toBe(429);
    expect(await detail(refused)).toBe("Vous avez lancé beaucoup d'exports en peu de temps (5 par heure au plus). Veuillez réessayer plus tard.");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    t.clock.advance(HOUR);
    expect((await t.get(DATA)).status).toBe(200);
  });

  test("one at a time: a second export while the first is still being read answers 429, and opens once the first is read", async () => {
    const t = await setup();
    const first = await t.get(DATA);
    expect(first.status).toBe(200);
    const second = await t.get(DATA);
    expect(second.status).toBe(429);
    expect(await detail(second)).toBe("Un export de vos données est déjà en cours : attendez qu'il se termine avant d'en lancer un autre.");
    JSON.parse(await first.text());
    expect((await t.get(DATA)).status).toBe(200);
  });

  test("a client gone mid-export frees its place", async () => {
    const t = await setup();
    const first = await t.get(DATA);
    await first.body!.cancel();
    expect((await t.get(DATA)).status).toBe(200);
  });

  test("another user's export is not held back", async () => {
    const t = await setup();
    const first = await t.get(DATA);
    expect(first.status).toBe(200);
    const other = await makeUser(t.db, t.clock.now());
    expect((await t.app.request(DATA, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(200);
  });

  test("the export is written as it is read: streamed in several pieces, without Content-Length, and whole", async () => {
    const t = await setup();
    for (let i = 0; i < 120; i++) await seedConversation(t, `Question ${i}`, `Réponse ${i} ${"x".repeat(2000)}`);
    const res = await t.get(DATA);
    expect(res.headers.get("content-length")).toBeNull();
    const reader = res.body!.getReader();
    const parts: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
    expect(parts.length).toBeGreaterThan(10);
    const doc = JSON.parse(new TextDecoder().decode(Buffer.concat(parts)));
    expect(doc.conversations).toHaveLength(121);
    expect(doc.conversations.at(-1).messages[1].content).toStartWith("Réponse 119 ");
  });
});

describe("conversation export limits", () => {
  test("the sixth conversation export in an hour answers a French 429", async () => {
    const t = await setup();
    const path = `/api/unisson/conversation/${t.conversationId}/export?format=json`;
    const refused = await sixth(t, path);
    expect(refused.status).toBe(429);
    expect(await detail(refused)).toBe("Vous avez lancé beaucoup d'exports en peu de temps (5 par heure au plus). Veuillez réessayer plus tard.");
  });

  test("a conversation export is streamed too, and whole", async () => {
    const t = await setup();
    const res = await t.get(`/api/unisson/conversation/${t.conversationId}/export?format=json`);
    expect(res.headers.get("content-length")).toBeNull();
    const doc = JSON.parse(await res.text());
    expect(doc.messages.map((m: { content: string }) => m.content)).toEqual(["Comment tailler un rosier ?", "En fin d'hiver, au-dessus d'un œil."]);
  });
});
