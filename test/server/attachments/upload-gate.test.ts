import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { attachments } from "../../../src/db/schema/index.ts";
import { textPdf } from "../../helpers/attachment-files.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { upload } from "./attachments.helpers.ts";

const fakes = useFakeProviders();

/**
 * The upload gate (src/attachments/upload-gate.ts): a user's uploads are
 * handled two at a time, the others wait with their bodies unread. What is
 * being handled shows in GET /api/attachment-storage, which counts the files
 * being read beside those stored (storage-quota.ts).
 */
describe("the upload gate: two uploads of one user at a time", () => {
  // Four readers: the pool would take four of one user's files at once (all but one), so any limit seen is the gate's.
  const env = { ATTACHMENT_READERS: "4", ATTACHMENT_PAGES_PRO: "600", ATTACHMENT_EXTRACT_TIMEOUT_MS: "120000", ATTACHMENT_QUOTA_MB_TRIAL: "100" };

  test("six slow PDFs sent at once: never more than two in hand, all six stored in the end", async () => {
    const t = await chatApp(fakes(), { env });
    // 600 pages, all read: long enough that the six are sent long before the first is stored.
    const pdf = await textPdf(600);
    let done = 0;
    const sent = Array.from({ length: 6 }, (_, i) =>
      upload(t, pdf, `lent-${i}.pdf`).then((r) => {
        done++;
        return r.status;
      }),
    );
    let most = 0;
    while (done < 6) {
      const storage = await t.call("GET", "/api/attachment-storage", { token: t.token });
      // Counted after the answer: a file stored in between is subtracted, never counted twice.
      const [stored] = await t.db.select({ files: count() }).from(attachments).where(eq(attachments.userId, t.user.id));
      most = Math.max(most, storage.body.used_bytes / pdf.length - Number(stored!.files));
      await Bun.sleep(20);
    }
    expect(await Promise.all(sent)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBeGreaterThan(0);
  }, 120_000);

  test("another user's upload waits for no one in the first user's line", async () => {
    const t = await chatApp(fakes(), { env });
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    const pdf = await textPdf(600);
    const order: string[] = [];
    const mine = Array.from({ length: 6 }, (_, i) => upload(t, pdf, `lent-${i}.pdf`).then(() => order.push(`a${i}`)));
    // The six are all at the gate (two in hand, four waiting) before the other user sends a small text file.
    await Bun.sleep(200);
    const theirs = upload(t, new TextEncoder().encode("Le loyer est de 850 euros.\n"), "note.txt", other.token).then((r) => {
      order.push("b");
      return r.status;
    });
    expect(await theirs).toBe(201);
    await Promise.all(mine);
    // B's file came before A's last four at least: it never queued behind them.
    expect(order.indexOf("b")).toBeLessThanOrEqual(2);
  }, 120_000);
});
