import { describe, expect, test } from "bun:test";
import { pixelBomb, textPdf } from "../../helpers/attachment-files.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { storedRow, upload } from "./attachments.helpers.ts";

const fakes = useFakeProviders();

describe("a hostile file cannot stall or crash the server", () => {
  test("a PDF of 1,500 pages: only the pages a request can ever use are read (the largest plan's cap), the count is kept", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_PAGES_PRO: "50", ATTACHMENT_PAGES_BASIC: "40", ATTACHMENT_PAGES_TRIAL: "10" } });
    const res = await upload(t, await textPdf(1500), "bombe.pdf");
    expect(res.status).toBe(201);
    expect(res.body.pages).toBe(1500);
    const row = await storedRow(t, res.body.id);
    expect(row!.text!.split("\f")).toHaveLength(50);
  });

  test("past ATTACHMENT_EXTRACT_TIMEOUT_MS the worker is stopped: 415 naming the file, and the server answers on", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_EXTRACT_TIMEOUT_MS: "500", ATTACHMENT_PAGES_PRO: "10000" } });
    const res = await upload(t, await textPdf(3000), "lent.pdf");
    expect(res.status).toBe(415);
    expect(res.body.error).toBe("« lent.pdf » n'est pas accepté : sa lecture a pris trop de temps.");
    expect((await t.call("GET", "/api/health")).status).toBe(200);
  });

  test("past ATTACHMENT_EXTRACT_MAX_MB of memory growth the worker is stopped: 415 naming the file", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_EXTRACT_MAX_MB: "64", ATTACHMENT_EXTRACT_TIMEOUT_MS: "60000" } });
    // 8,000 × 8,000 pixels: about 200 KB sent, 256 MB once decoded.
    const bomb = pixelBomb(8000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await upload(t, bomb, "lourd.png");
    expect(res.status).toBe(415);
    expect(res.body.error).toBe("« lourd.png » n'est pas accepté : sa lecture demande trop de mémoire.");
    expect((await t.call("GET", "/api/health")).status).toBe(200);
  });
});
