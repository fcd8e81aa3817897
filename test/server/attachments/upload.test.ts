import { describe, expect, test } from "bun:test";
import { bigFile, blankPdf, docx, gif, jpeg, passwordPdf, png, scannedPdf, textPdf } from "../../helpers/attachment-files.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { askWith, storedRow, upload } from "./attachments.helpers.ts";

const fakes = useFakeProviders();

describe("POST /api/attachments: the type from the bytes", () => {
  test("a PDF with a text layer is stored with its text by page and its page count", async () => {
    const t = await chatApp(fakes());
    const res = await upload(t, await textPdf(3), "bail.pdf");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "bail.pdf", kind: "pdf", mime: "application/pdf", pages: 3 });
    const row = await storedRow(t, res.body.id);
    expect(row!.text!.split("\f")).toEqual([1, 2, 3].map((i) => `Page ${i} : le loyer mensuel est de 850 euros.`));
    expect(row!.messageId).toBeNull();
    expect(row!.size).toBe(res.body.size);
  });

  test("a DOCX is stored with its text", async () => {
    const t = await chatApp(fakes());
    const res = await upload(t, await docx(["Article 3", "Le préavis est de 3 mois."]), "contrat.docx");
    expect(res.status).toBe(201);
    expect(res.body.kind).toBe("docx");
    expect((await storedRow(t, res.body.id))!.text).toBe("Article 3\n\nLe préavis est de 3 mois.");
  });

  test("plain text, Markdown and CSV are told apart by their name, their bytes being text", async () => {
    const t = await chatApp(fakes());
    const text = new TextEncoder().encode("a;b\n1;2\n");
    expect((await upload(t, text, "notes.txt")).body.kind).toBe("text");
    expect((await upload(t, text, "notes.md")).body.kind).toBe("markdown");
    expect((await upload(t, text, "chiffres.csv")).body).toMatchObject({ kind: "csv", mime: "text/csv" });
  });

  test("a CSV written by Excel in Windows-1252 is read with its accents", async () => {
    const t = await chatApp(fakes());
    const bytes = new Uint8Array([
      ...new TextEncoder().encode("ann"),
      0xe9,
      0x65,
      0x3b,
      0x6d,
      0x6f,
      0x6e,
      0x74,
      0x61,
      0x6e,
      0x74,
      0x0a,
      0x32,
      0x30,
      0x32,
      0x36,
      0x3b,
      0x38,
      0x35,
      0x30,
      0x80,
      0x0a,
    ]);
    const res = await upload(t, bytes, "comptes.csv");
    expect(res.body.kind).toBe("csv");
    // Stored once, as sent (storage-quota item of issue 44): its text is decoded when the models read it.
    await askWith(t, [res.body.id]);
    const call = fakes()
      .control.callsOf("answer")
      .find((c) => c.model === "gpt4")!;
    expect(call.messages.at(-1)!.content).toContain("année;montant\n2026;850€\n");
  });

  test("a large PNG is kept as sent, and resized to 1568 px on its long side for the models, with a thumbnail", async () => {
    const t = await chatApp(fakes());
    const bytes = await png(3000, 1500);
    const res = await upload(t, bytes, "capture.png");
    expect(res.body).toMatchObject({ kind: "png", mime: "image/png", width: 3000, height: 1500 });
    const row = (await storedRow(t, res.body.id))!;
    expect(new Uint8Array(row.data)).toEqual(bytes);
    const { Jimp } = await import("jimp");
    const model = await Jimp.read(Buffer.from(row.modelImage!));
    expect([model.width, model.height]).toEqual([1568, 784]);
    const thumb = await Jimp.read(Buffer.from(row.thumbnail!));
    expect(Math.max(thumb.width, thumb.height)).toBe(256);
  });

  test("a small JPEG is not enlarged", async () => {
    const t = await chatApp(fakes());
    const res = await upload(t, await jpeg(800, 600), "photo.jpg");
    expect(res.body).toMatchObject({ kind: "jpeg", width: 800, height: 600 });
    const { Jimp } = await import("jimp");
    const model = await Jimp.read((await storedRow(t, res.body.id))!.modelImage!);
    expect([model.width, model.height]).toEqual([800, 600]);
  });

  test("a GIF's first frame becomes a PNG for the models", async () => {
    const t = await chatApp(fakes());
    const res = await upload(t, await gif(120, 80), "anim.gif");
    expect(res.body.kind).toBe("gif");
    const row = (await storedRow(t, res.body.id))!;
    expect([...row.modelImage!.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
  });

  test("a scanned PDF (a picture, no text) is accepted: its picture is kept for the models that see", async () => {
    const t = await chatApp(fakes());
    const res = await upload(t, await scannedPdf(), "scan.pdf");
    expect(res.status).toBe(201);
    const row = (await storedRow(t, res.body.id))!;
    expect(row.text).toBe("");
    expect(row.modelImage!.length).toBeGreaterThan(0);
  });
});

describe("POST /api/attachments: refusals, in French, naming the file", () => {
  const refusedWith = async (bytes: Uint8Array, name: string, reason: RegExp) => {
    const t = await chatApp(fakes());
    const res = await upload(t, bytes, name);
    expect(res.status).toBe(415);
    expect(res.body.error).toStartWith(`« ${name} » n'est pas accepté : `);
    expect(res.body.error).toMatch(reason);
    expect(res.body.detail).toBe(res.body.error);
  };

  test("a text file renamed .pdf", async () => {
    await refusedWith(new TextEncoder().encode("Ceci n'est pas un PDF."), "faux.pdf", /ce n'est pas un fichier PDF, malgré son nom/);
  });

  test("a password-protected PDF", async () => {
    await refusedWith(await passwordPdf(), "secret.pdf", /protégé par un mot de passe/);
  });

  test("a PDF with neither text nor picture", async () => {
    await refusedWith(await blankPdf(), "vide.pdf", /ni texte ni image/);
  });

  test("an executable, even named .png", async () => {
    const elf = new Uint8Array(4096);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
    await refusedWith(elf, "image.png", /exécutable/);
  });

  test("an SVG", async () => {
    await refusedWith(
      new TextEncoder().encode('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      "logo.svg",
      /SVG/,
    );
  });

  test("an archive", async () => {
    const { default: JSZip } = await import("jszip");
    const zip = new JSZip();
    zip.file("a.txt", "bonjour");
    await refusedWith(await zip.generateAsync({ type: "uint8array" }), "dossier.zip", /archive/);
  });

  test("a 12 MB file is refused with 413 and the limit, nothing stored", async () => {
    const t = await chatApp(fakes());
    const res = await upload(t, bigFile(12), "gros.txt");
    expect(res.status).toBe(413);
    expect(res.body.error).toContain("10 Mo au plus par fichier");
    expect(await storedRow(t, 1)).toBeUndefined();
  });

  test("a file just over ATTACHMENT_MAX_MB is refused by name", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_MAX_MB: "1" } });
    const res = await upload(t, bigFile(2).slice(0, 1024 * 1024 + 10), "juste.txt");
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("« juste.txt » est trop volumineux : 1 Mo au plus par fichier.");
  });

  test("a body without a file field", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("POST", "/api/attachments", { token: t.token, json: { file: "x" } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("champ « file »");
  });

  test("without a session, 401", async () => {
    const t = await chatApp(fakes());
    expect((await upload(t, new TextEncoder().encode("x"), "a.txt", "not-a-valid-token-at-all")).status).toBe(401);
  });
});

describe("GET /api/attachment-limits", () => {
  test("tells the page the limits and the accepted types", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_MAX_MB: "7", ATTACHMENTS_PER_MESSAGE: "3" } });
    const res = await t.call("GET", "/api/attachment-limits");
    expect(res.body.attachments).toMatchObject({ max_mb: 7, per_message: 3 });
    expect(res.body.attachments.accept).toContain("application/pdf");
  });
});

describe("POST /api/attachments: a script cannot fill the database", () => {
  test("the 61st upload in 10 minutes is a French 429, another user is not held back", async () => {
    const t = await chatApp(fakes());
    const note = new TextEncoder().encode("note");
    for (let i = 0; i < 60; i++) expect((await upload(t, note, `n${i}.txt`)).status).toBe(201);
    const refused = await upload(t, note, "encore.txt");
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toContain("Trop de tentatives");
    const { makeUser } = await import("../../helpers/fixtures.ts");
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    expect((await upload(t, note, "a.txt", other.token)).status).toBe(201);
    t.clock.advance(10 * 60_000 + 1);
    expect((await upload(t, note, "plus-tard.txt")).status).toBe(201);
  });
});
