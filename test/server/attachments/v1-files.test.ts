import { describe, expect, test } from "bun:test";
import { bigFile, png, textPdf } from "../../helpers/attachment-files.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError, balance } from "../openai/openai.helpers.ts";

const fakes = useFakeProviders();
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const answerCall = (model: string) =>
  fakes()
    .control.callsOf("answer")
    .find((c) => c.model === model)!;

describe("/v1 with pictures and files", () => {
  test("chat completions: an image_url data URL and a base64 PDF file part reach the models, one request charged", async () => {
    const t = await apiApp(fakes());
    const before = await balance(t);
    const res = await t.openai.chat.completions.create({
      model: "unisson",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Le loyer sur la facture et sur la photo est-il le même ?" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${b64(await png(1800, 900))}` } },
            { type: "file", file: { filename: "bail.pdf", file_data: `data:application/pdf;base64,${b64(await textPdf(2))}` } },
          ],
        },
      ],
    });
    expect(res.choices[0]!.message.content).toContain("## Réponse consolidée");
    expect(await balance(t)).toBe(before - 1);
    const gpt = (answerCall("gpt4").raw as any[]).at(-1);
    expect(gpt.content[0].text).toContain("« bail.pdf » (PDF, 2 pages)");
    expect(gpt.content[1].image_url.url).toStartWith("data:image/png;base64,");
    // A model that does not see gets the document's text (Sonar Pro: the openai SDK, already loaded; Mistral's SDK loads at its first call).
    const sonar = (answerCall("sonarPro").raw as any[]).at(-1);
    expect(sonar.content).toContain("Page 2 : le loyer mensuel est de 850 euros.");
    const conv = await t.call("GET", `/api/unisson/conversation/${(res as any).unisson.conversation_id}`, { token: t.token });
    expect(conv.body.messages[0].attachments.map((a: { kind: string }) => a.kind)).toEqual(["png", "pdf"]);
  });

  test("the Responses API: input_image and input_file", async () => {
    const t = await apiApp(fakes());
    const res = await t.openai.responses.create({
      model: "unisson",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Résume ce document." },
            { type: "input_file", filename: "rapport.pdf", file_data: `data:application/pdf;base64,${b64(await textPdf(3))}` },
            { type: "input_image", detail: "auto", image_url: `data:image/png;base64,${b64(await png(40, 40))}` },
          ],
        },
      ],
    });
    expect(res.output_text).toContain("## Réponse consolidée");
    const claude = (answerCall("claudeOpus").raw as any[]).at(-1);
    expect(claude.content[0].type).toBe("image");
    expect(claude.content[1].text).toContain("« rapport.pdf » (PDF, 3 pages)");
  });

  test("an https image address is refused, never fetched, nothing charged", async () => {
    const t = await apiApp(fakes());
    const before = await balance(t);
    const e = await apiError(
      t.openai.chat.completions.create({
        model: "unisson",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Que montre cette image ?" },
              { type: "image_url", image_url: { url: "https://127.0.0.1:1/secret.png" } },
            ],
          },
        ],
      }),
    );
    expect(e.status).toBe(400);
    expect(e.message).toContain("Unisson ne télécharge pas de fichier ni d'image depuis une adresse");
    expect(await balance(t)).toBe(before);
    expect(fakes().control.calls).toEqual([]);
  });

  test("the same limits as the page: a file renamed .pdf is 415, a file over ATTACHMENT_MAX_MB 413", async () => {
    const t = await apiApp(fakes(), { env: { ATTACHMENT_MAX_MB: "1" } });
    const ask = (filename: string, bytes: Uint8Array) =>
      t.openai.chat.completions.create({
        model: "unisson",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Lis ceci." },
              { type: "file", file: { filename, file_data: `data:application/pdf;base64,${b64(bytes)}` } },
            ],
          },
        ],
      });
    const fake = await apiError(ask("faux.pdf", new TextEncoder().encode("pas un pdf")));
    expect(fake.status).toBe(415);
    expect(fake.message).toContain("« faux.pdf » n'est pas accepté : ce n'est pas un fichier PDF, malgré son nom.");
    const big = await apiError(ask("gros.pdf", bigFile(2)));
    expect(big.status).toBe(413);
    expect(big.message).toContain("1 Mo au plus par fichier");
  });
});
