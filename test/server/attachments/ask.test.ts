import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { aiCalls } from "../../../src/db/schema/index.ts";
import { updateMember } from "../../../src/council/council.store.ts";
import { docx, jpeg, png, scannedPdf, textPdf } from "../../helpers/attachment-files.ts";
import { chatApp, remaining, useFakeProviders } from "../chat/chat.helpers.ts";
import { askWith, storedRow, uploaded } from "./attachments.helpers.ts";

const fakes = useFakeProviders();
const VISION = ["gpt4", "claudeOpus", "claudeHaiku", "geminiPro"] as const;
const BLIND = ["mistralLarge", "sonarPro"] as const;

/** The answer call each model received (the last one). */
const answerCall = (model: string) =>
  fakes()
    .control.callsOf("answer")
    .find((c) => c.model === model)!;
const lastUser = (model: string) => answerCall(model).messages.at(-1)!.content;

describe("a question with documents: every model reads them, one request is charged", () => {
  test("a PDF's text, by page, goes to all six models; the answer is charged once, its tokens costed per call", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await textPdf(2), "bail.pdf");
    const { chat, answer } = await askWith(t, [id], "Quel est le loyer ?");
    expect(chat.status).toBe(200);
    expect(chat.body.requires_final_processing).toBe(true);
    expect(answer!.status).toBe(200);
    for (const model of [...VISION, ...BLIND]) {
      const text = lastUser(model);
      expect(text).toContain("« bail.pdf » (PDF, 2 pages)");
      expect(text).toContain("[Page 2]\nPage 2 : le loyer mensuel est de 850 euros.");
      expect(text).toEndWith("Question de l'utilisateur :\nQuel est le loyer ?");
    }
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
    const calls = await t.db.select().from(aiCalls).where(eq(aiCalls.purpose, "answer"));
    expect(calls).toHaveLength(6);
    // The fakes count a token per four characters of what they received: the document's text is in every answer's cost
    // (a call a loaded machine left out at the soft deadline has no usage: only the answers are looked at).
    const answered = calls.filter((c) => c.outcome === "ok");
    expect(answered.length).toBeGreaterThanOrEqual(2);
    for (const c of answered) expect(c.tokensIn!).toBeGreaterThan(100);
    // Costed per call, read from the calls that answered: the answer's model list also names a member left out at the
    // soft deadline (no usage, no cost), which failed this once on PostgreSQL under load.
    for (const c of answered) expect(c.costEur!).toBeGreaterThan(0);
  });

  test("the message lists its attachment, and the synthesiser is asked for the readings' agreements and divergences", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await docx(["Le préavis est de 3 mois."]), "contrat.docx");
    const { chat } = await askWith(t, [id]);
    const conv = await t.call("GET", `/api/unisson/conversation/${chat.body.conversation_id}`, { token: t.token });
    expect(conv.body.messages[0].attachments).toEqual([
      { id, name: "contrat.docx", kind: "docx", mime: expect.stringContaining("wordprocessingml"), size: expect.any(Number) },
    ]);
    const synthesis = fakes().control.callsOf("synthesis")[0]!;
    expect(synthesis.system).toContain("« contrat.docx »");
    expect(synthesis.system).toContain("un chiffre, une date, une clause");
    expect(synthesis.system).toContain("Cite la page");
    expect(synthesis.messages[0]!.content).toContain("Documents joints, lus par chaque IA : « contrat.docx »");
    expect(lastUser("mistralLarge")).toContain("Le préavis est de 3 mois.");
  });

  test("a long PDF is cut by pages to the plan's cap, and the answer says where reading stopped", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_PAGES_TRIAL: "38" } });
    const id = await uploaded(t, await textPdf(120), "rapport.pdf");
    const { answer } = await askWith(t, [id]);
    expect(lastUser("gpt4")).toContain("[Page 38]");
    expect(lastUser("gpt4")).not.toContain("[Page 39]");
    expect(answer!.body.final_response).toStartWith("> « rapport.pdf » : document lu jusqu'à la page 38 sur 120.");
    expect(answer!.body.message.result_data.document_notices).toContain("« rapport.pdf » : document lu jusqu'à la page 38 sur 120.");
  });

  test("the token budget cuts a long PDF by whole pages too", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENT_TOKEN_BUDGET: "1000" } });
    const lines = (i: number) => Array.from({ length: 10 }, (_, n) => `Page ${i}, ligne ${n} : une phrase assez longue pour peser.`);
    const id = await uploaded(t, await textPdf(30, lines), "long.pdf");
    const { answer } = await askWith(t, [id]);
    const notice = answer!.body.message.result_data.document_notices[0] as string;
    const read = Number(notice.match(/page (\d+) sur 30/)![1]);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(30);
    expect(lastUser("claudeOpus")).toContain(`[Page ${read}]`);
    expect(lastUser("claudeOpus")).not.toContain(`[Page ${read + 1}]`);
  });
});

describe("a question with a picture: the models that see get it in their SDK's format, the others are named", () => {
  test("OpenAI image_url data URL, Anthropic base64 image block, Gemini inlineData; Mistral and Sonar get text only", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await png(2000, 1000), "erreur.png");
    const { answer } = await askWith(t, [id], "Que signifie cette erreur ?");
    const dataUrl = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/;

    const openai = (answerCall("gpt4").raw as any[]).at(-1);
    expect(openai.content[0]).toEqual({ type: "text", text: expect.stringContaining("Que signifie cette erreur ?") });
    expect(openai.content[1].type).toBe("image_url");
    expect(openai.content[1].image_url.url).toMatch(dataUrl);

    for (const model of ["claudeOpus", "claudeHaiku"]) {
      const anthropic = (answerCall(model).raw as any[]).at(-1);
      expect(anthropic.content[0]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png" } });
      expect(anthropic.content[1].type).toBe("text");
    }

    const gemini = (answerCall("geminiPro").raw as any[]).at(-1);
    expect(gemini.parts[1].inlineData.mimeType).toBe("image/png");
    const { Jimp } = await import("jimp");
    const sent = await Jimp.read(Buffer.from(gemini.parts[1].inlineData.data, "base64"));
    expect([sent.width, sent.height]).toEqual([1568, 784]);

    for (const model of BLIND) {
      const raw = (answerCall(model).raw as any[]).at(-1);
      expect(typeof raw.content).toBe("string");
    }
    expect(answer!.body.final_response).toContain("Mistral Large ne lit pas les images");
    expect(answer!.body.final_response).toContain("Sonar Pro ne lit pas les images");
  });

  test("Mistral's image format, once the council says it sees: an image_url chunk with a data URL", async () => {
    const t = await chatApp(fakes());
    // Which members see is a council setting (« Modèles », `unisson council set --vision`).
    await updateMember(t.db, "Mistral Large", { vision: true }, t.clock.now());
    await updateMember(t.db, "Claude Opus 4.1", { vision: false }, t.clock.now());
    const id = await uploaded(t, await jpeg(640, 480), "photo.jpg");
    const { answer } = await askWith(t, [id], "Que voit-on ?");
    const mistral = (answerCall("mistralLarge").raw as any[]).at(-1);
    expect(mistral.content[1]).toEqual({ type: "image_url", image_url: expect.stringMatching(/^data:image\/jpeg;base64,/) });
    expect(typeof (answerCall("claudeOpus").raw as any[]).at(-1).content).toBe("string");
    expect(answer!.body.final_response).toContain("Claude Opus 4.1 ne lit pas les images");
  });

  test("a scanned PDF's picture goes to the models that see", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await scannedPdf(), "scan.pdf");
    await askWith(t, [id], "Que dit ce courrier ?");
    expect((answerCall("gpt4").raw as any[]).at(-1).content[1].image_url.url).toStartWith("data:image/jpeg;base64,");
    expect(lastUser("mistralLarge")).toContain("PDF sans couche de texte");
  });
});

describe("attachments belong to one user", () => {
  test("another user's attachment: 404 to read, to thumbnail and to send", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await png(50, 50), "moi.png");
    const { makeUser } = await import("../../helpers/fixtures.ts");
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    for (const path of [`/api/attachments/${id}`, `/api/attachments/${id}/thumbnail`]) {
      const res = await t.call("GET", path, { token: other.token });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe("Pièce jointe introuvable.");
    }
    const chat = await t.call("POST", "/api/unisson/chat", { token: other.token, json: { message: "Et ça ?", attachments: [id] } });
    expect(chat.status).toBe(404);
    expect(chat.body.detail).toContain("Pièce jointe introuvable");
  });

  test("the owner gets the bytes back, inline or as a download", async () => {
    const t = await chatApp(fakes());
    const bytes = await textPdf(1);
    const id = await uploaded(t, bytes, "Relevé été.pdf");
    const inline = await t.app.request(`/api/attachments/${id}`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(inline.headers.get("content-type")).toBe("application/pdf");
    expect(inline.headers.get("content-disposition")).toStartWith("inline;");
    expect(new Uint8Array(await inline.arrayBuffer())).toEqual(bytes);
    const download = await t.app.request(`/api/attachments/${id}?download=1`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="Relev_ _t_.pdf"; filename*=UTF-8''${encodeURIComponent("Relevé été.pdf")}`);
  });

  test("an attachment is sent once: sending it again is 404", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await docx(["Un."]), "un.docx");
    await askWith(t, [id]);
    const again = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Encore ?", attachments: [id] } });
    expect(again.status).toBe(404);
  });

  test("more than ATTACHMENTS_PER_MESSAGE files: 400, nothing sent", async () => {
    const t = await chatApp(fakes(), { env: { ATTACHMENTS_PER_MESSAGE: "2" } });
    const ids = [];
    for (const n of [1, 2, 3]) ids.push(await uploaded(t, new TextEncoder().encode(`note ${n}`), `n${n}.txt`));
    const res = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Résume", attachments: ids } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Trop de pièces jointes : 2 au plus par message.");
    expect((await storedRow(t, ids[0]!))!.messageId).toBeNull();
  });
});

describe("attachments go with what they belong to", () => {
  test("deleting the conversation deletes its attachments", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await docx(["Un."]), "un.docx");
    const { chat } = await askWith(t, [id]);
    expect((await storedRow(t, id))!.conversationId).toBe(chat.body.conversation_id);
    const del = await t.call("DELETE", `/api/unisson/conversation/${chat.body.conversation_id}`, { token: t.token });
    expect(del.status).toBe(200);
    expect(await storedRow(t, id)).toBeUndefined();
  });

  test("deleting the account deletes every attachment, sent or not", async () => {
    const t = await chatApp(fakes());
    const sent = await uploaded(t, await docx(["Un."]), "un.docx");
    await askWith(t, [sent]);
    const unsent = await uploaded(t, await png(20, 20), "brouillon.png");
    const { TEST_PASSWORD } = await import("../../helpers/fixtures.ts");
    const res = await t.call("DELETE", "/api/auth/account", { token: t.token, json: { password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect(await storedRow(t, sent)).toBeUndefined();
    expect(await storedRow(t, unsent)).toBeUndefined();
  });

  test("an upload never sent is deleted within the hour by the cleanup job (every 10 minutes, past 50 minutes)", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await png(20, 20), "oublié.png");
    const { cleanupExpired, cleanupJob } = await import("../../../src/jobs/cleanup.job.ts");
    expect(cleanupJob.everyMs).toBe(10 * 60_000);
    t.clock.advance(49 * 60_000);
    await cleanupExpired(t.deps);
    expect(await storedRow(t, id)).toBeDefined();
    t.clock.advance(2 * 60_000);
    expect((await cleanupExpired(t.deps)).attachments).toBe(1);
    expect(await storedRow(t, id)).toBeUndefined();
  });

  test("the files of a question sent but never processed are deleted like unsent ones; a processed question keeps its own", async () => {
    const t = await chatApp(fakes());
    const kept = await uploaded(t, await png(20, 20), "lu.png");
    await askWith(t, [kept]);
    const dropped = await uploaded(t, await png(20, 20), "jamais-lu.png");
    const chat = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Que montre cette image ?", attachments: [dropped] } });
    expect(chat.status).toBe(200);
    const { cleanupExpired } = await import("../../../src/jobs/cleanup.job.ts");
    t.clock.advance(51 * 60_000);
    expect((await cleanupExpired(t.deps)).attachments).toBe(1);
    expect(await storedRow(t, dropped)).toBeUndefined();
    expect(await storedRow(t, kept)).toBeDefined();
  });
});
