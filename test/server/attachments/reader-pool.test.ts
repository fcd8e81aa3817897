import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { inflatePdf, textPdf, webpHeaderOnly } from "../../helpers/attachment-files.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { upload } from "./attachments.helpers.ts";

const fakes = useFakeProviders();

describe("reading files: a budget checked before decoding, a fair queue", () => {
  test("a 46-byte WebP declaring 9,000 × 9,000 pixels is refused for its memory before anything is decoded", async () => {
    const t = await chatApp(fakes());
    const bomb = webpHeaderOnly(9000);
    expect(bomb.length).toBe(46);
    const res = await upload(t, bomb, "immense.webp");
    expect(res.status).toBe(415);
    expect(res.body.detail).toBe("« immense.webp » n'est pas accepté : sa lecture demande trop de mémoire.");
  });

  test("a PDF whose page inflates past the budget is refused for its memory before pdf.js opens it", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_EXTRACT_MAX_MB: "64" } });
    // 32 MB of spaces in one Flate stream (about 32 KB sent), against 64 MB / 4 for one inflated stream.
    const res = await upload(t, inflatePdf(32), "gonfle.pdf");
    expect(res.status).toBe(415);
    expect(res.body.detail).toBe("« gonfle.pdf » n'est pas accepté : sa lecture demande trop de mémoire.");
  });

  /** User A sends three slow PDFs at once, user B a one-page PDF half a second later: the order in which the four are read. */
  async function finishingOrder(readers: string): Promise<string[]> {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_READERS: readers, ATTACHMENT_PAGES_PRO: "1500", ATTACHMENT_EXTRACT_TIMEOUT_MS: "120000" } });
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    // 1,500 pages, all read: seconds each even on a quiet machine, far longer than the one-page PDF sent 0.5 s after them.
    const slow = await textPdf(1500);
    const done: string[] = [];
    const track = (who: string, p: Promise<{ status: number }>) =>
      p.then((r) => {
        done.push(who);
        return r;
      });
    const mine = [1, 2, 3].map((i) => track(`a${i}`, upload(t, slow, `lent-${i}.pdf`)));
    // The three are in the readers' queue long before the first is read.
    await Bun.sleep(500);
    const theirs = track("b", upload(t, await textPdf(1), "court.pdf", other.token));
    expect((await Promise.all([...mine, theirs])).map((r) => r.status)).toEqual([201, 201, 201, 201]);
    return done;
  }

  test("with one reader, a user's three slow PDFs let another user's small PDF through after the one being read", async () => {
    expect((await finishingOrder("1")).indexOf("b")).toBeLessThanOrEqual(1);
  }, 120_000);

  test("with two readers, a user's three slow PDFs leave one reader free: another user's small PDF is read first", async () => {
    expect((await finishingOrder("2"))[0]).toBe("b");
  }, 120_000);
});
