import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { textPdf } from "../../helpers/attachment-files.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { upload } from "./attachments.helpers.ts";

const fakes = useFakeProviders();

/** A lossless WebP that is only its header: 46 bytes declaring `side` × `side` pixels (the VP8L bitstream's first 4 bytes after its signature). */
function webpHeaderOnly(side: number): Uint8Array {
  const vp8l = Buffer.alloc(26);
  vp8l[0] = 0x2f;
  vp8l.writeUInt32LE(((side - 1) | ((side - 1) << 14)) >>> 0, 1);
  const chunk = Buffer.concat([Buffer.from("VP8L"), Buffer.from(new Uint32Array([vp8l.length]).buffer), vp8l]);
  const body = Buffer.concat([Buffer.from("WEBP"), chunk]);
  return new Uint8Array(Buffer.concat([Buffer.from("RIFF"), Buffer.from(new Uint32Array([body.length]).buffer), body]));
}

describe("reading files: a budget checked before decoding, a fair queue", () => {
  test("a 46-byte WebP declaring 9,000 × 9,000 pixels is refused for its memory before anything is decoded", async () => {
    const t = await chatApp(fakes());
    const bomb = webpHeaderOnly(9000);
    expect(bomb.length).toBe(46);
    const res = await upload(t, bomb, "immense.webp");
    expect(res.status).toBe(415);
    expect(res.body.detail).toBe("« immense.webp » n'est pas accepté : sa lecture demande trop de mémoire.");
  });

  test("with one reader, a user's three slow PDFs let another user's small PDF through after the one being read", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_READERS: "1", ATTACHMENT_PAGES_PRO: "600", ATTACHMENT_EXTRACT_TIMEOUT_MS: "120000" } });
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    const slow = await textPdf(600);
    const done: string[] = [];
    const track = (who: string, p: Promise<{ status: number }>) =>
      p.then((r) => {
        done.push(who);
        return r;
      });
    const mine = [1, 2, 3].map((i) => track(`a${i}`, upload(t, slow, `lent-${i}.pdf`)));
    // The three are in the readers' queue long before the first is read (600 pages take seconds).
    await Bun.sleep(500);
    const theirs = track("b", upload(t, await textPdf(1), "court.pdf", other.token));
    const results = await Promise.all([...mine, theirs]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(done.indexOf("b")).toBeLessThanOrEqual(1);
  });

  test("with two readers, a user's three slow PDFs leave one reader free: another user's small PDF is read first", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_READERS: "2", ATTACHMENT_PAGES_PRO: "600", ATTACHMENT_EXTRACT_TIMEOUT_MS: "120000" } });
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    const slow = await textPdf(600);
    const done: string[] = [];
    const track = (who: string, p: Promise<{ status: number }>) =>
      p.then((r) => {
        done.push(who);
        return r;
      });
    const mine = [1, 2, 3].map((i) => track(`a${i}`, upload(t, slow, `lent-${i}.pdf`)));
    await Bun.sleep(500);
    const theirs = track("b", upload(t, await textPdf(1), "court.pdf", other.token));
    expect((await Promise.all([...mine, theirs])).map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(done[0]).toBe("b");
  });
});
