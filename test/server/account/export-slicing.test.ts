import { describe, expect, test } from "bun:test";
import { attachments } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

const MiB = 1024 * 1024;

/** Bytes no two slices of which look alike: a slice written twice or out of order changes the file. */
function numbered(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/**
 * A text whose slices (256 Ki characters each, src/lib/json-stream.ts) would
 * cut an emoji in two at the first boundary, with characters JSON escapes on
 * both sides: the text must come back as it went.
 */
const TRICKY = `${"a".repeat(256 * 1024 - 1)}😀"\\\n\t</script>${"é«»".repeat(200_000)}🎉`;

async function userWithFiles() {
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now());
  const files = [numbered(3 * MiB + 7, 1), numbered(2 * MiB, 2), numbered(1, 3)];
  const now = t.clock.now();
  for (const [i, data] of files.entries()) {
    await t.db
      .insert(attachments)
      .values({ userId: user.id, name: `f${i}.pdf`, kind: "pdf", mime: "application/pdf", size: data.length, data: Buffer.from(data), createdAt: now });
  }
  const text = Buffer.from(TRICKY);
  await t.db
    .insert(attachments)
    .values({ userId: user.id, name: "notes.txt", kind: "text", mime: "text/plain", size: text.length, data: text, createdAt: now });
  return { t, token, files };
}

describe("the data export writes large files in slices", () => {
  test("every file arrives whole and in order, its base64 and its text as JSON.stringify would write them, over many chunks", async () => {
    const { t, token, files } = await userWithFiles();
    const res = await t.app.request("/api/auth/export", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const chunks: Uint8Array[] = [];
    for await (const chunk of res.body!) chunks.push(chunk);
    // About 8 MiB of base64 and 1 MiB of text, at most 1 MiB a chunk.
    expect(chunks.length).toBeGreaterThanOrEqual(9);
    const text = new TextDecoder().decode(Buffer.concat(chunks));
    const d = JSON.parse(text);
    expect(d.attachments.map((a: { name: string }) => a.name)).toEqual(["f0.pdf", "f1.pdf", "f2.pdf", "notes.txt"]);
    for (const [i, bytes] of files.entries()) {
      expect(d.attachments[i].data_base64).toBe(Buffer.from(bytes).toString("base64"));
      expect(d.attachments[i].extracted_text).toBeNull();
    }
    const notes = d.attachments[3];
    expect(notes.extracted_text).toBe(TRICKY);
    expect(Buffer.from(notes.data_base64, "base64").toString()).toBe(TRICKY);
    // The same text JSON.stringify of the whole object would write: no lone surrogate escaped, same key order.
    const { extracted_text, data_base64, ...head } = notes;
    expect(text).toContain(JSON.stringify({ ...head, extracted_text, data_base64 }));
  });

  test("while a fast reader takes the export, the server answers another request before the export ends", async () => {
    const { t, token } = await userWithFiles();
    const res = await t.app.request("/api/auth/export", { headers: { authorization: `Bearer ${token}` } });
    const events: string[] = [];
    let other: Promise<void> | undefined;
    let chunks = 0;
    for await (const _ of res.body!) {
      events.push(`chunk ${++chunks}`);
      // Asked once the files have begun, and not awaited here: the export goes on being read as fast as it comes.
      if (chunks === 2)
        other = Promise.resolve(t.app.request("/api/health")).then((r) => {
          events.push(`health ${r.status}`);
        });
    }
    events.push("end");
    await other;
    expect(events).toContain("health 200");
    expect(events.indexOf("health 200")).toBeLessThan(events.indexOf("end") - 1);
  });
});
