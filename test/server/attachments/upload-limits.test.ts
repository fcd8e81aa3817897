import { describe, expect, test } from "bun:test";
import { textPdf } from "../../helpers/attachment-files.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError } from "../openai/openai.helpers.ts";
import { storedRow, upload } from "./attachments.helpers.ts";

const fakes = useFakeProviders();
const note = (i: number) => new TextEncoder().encode(`Note ${i} : le loyer est de 850 euros.\n`);

describe("one set of upload limits per person, whatever the door", () => {
  test("/v1 file parts count in the page's 60 uploads per 10 minutes: past them, a /v1 file is a 429", async () => {
    const t = await apiApp(fakes());
    for (let i = 0; i < 60; i++) expect((await upload(t, note(i), `note-${i}.txt`)).status).toBe(201);
    const file = { type: "file" as const, file: { filename: "encore.txt", file_data: `data:text/plain;base64,${Buffer.from(note(61)).toString("base64")}` } };
    const e = await apiError(
      t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: [{ type: "text", text: "Lis ceci." }, file] }] }),
    );
    expect(e.status).toBe(429);
    expect(e.message).toContain("Trop de tentatives d'envoi de fichiers : 60 au plus en 10 minutes.");
  });
});

describe("a storage quota per user, by plan", () => {
  test("past ATTACHMENT_QUOTA_MB_TRIAL, stored plus pending, an upload is a French 413 that names the quota", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_QUOTA_MB_TRIAL: "1" } });
    const half = new TextEncoder().encode(`${"Le loyer est de 850 euros.\n".repeat(22_000)}`);
    expect((await upload(t, half, "premier.txt")).status).toBe(201);
    const res = await upload(t, half, "second.txt");
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe(
      "Espace des pièces jointes plein : 1 Mo au plus avec le forfait Essai, 0,6 Mo déjà utilisés. Supprimez des conversations qui ont des fichiers, ou choisissez un forfait supérieur.",
    );
  });

  test("parallel uploads cannot all pass the same check: the ones being read count", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_QUOTA_MB_TRIAL: "1" } });
    // About 415 KB each (900 pages, 300 of them read): two fit in 1 MB, four are sent at once while the first ones are read.
    const pdf = await textPdf(900);
    expect(Math.floor((1024 * 1024) / pdf.length)).toBe(2);
    const statuses = await Promise.all(Array.from({ length: 4 }, (_, i) => upload(t, pdf, `p${i}.pdf`).then((r) => r.status)));
    expect(statuses.sort()).toEqual([201, 201, 413, 413]);
  });

  test("a text file is stored once: its bytes, no second copy as text", async () => {
    const t = await chatApp(fakes());
    const res = await upload(t, note(1), "note.txt");
    const row = await storedRow(t, res.body.id);
    expect(new TextDecoder().decode(row!.data)).toBe("Note 1 : le loyer est de 850 euros.\n");
    expect(row!.text).toBeNull();
  });
});

describe("GET /api/attachment-storage", () => {
  test("the user's stored bytes against their plan's quota, for the account dialog", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_QUOTA_MB_TRIAL: "3" } });
    await upload(t, note(1), "note.txt");
    const res = await t.call("GET", "/api/attachment-storage", { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ used_bytes: note(1).length, quota_bytes: 3 * 1024 * 1024, quota_mb: 3 });
    expect((await t.call("GET", "/api/attachment-storage")).status).toBe(401);
  });
});
