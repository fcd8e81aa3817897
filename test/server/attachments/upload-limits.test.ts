import { describe, expect, test } from "bun:test";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError } from "../openai/openai.helpers.ts";
import { upload } from "./attachments.helpers.ts";

const fakes = useFakeProviders();
const note = (i: number) => new TextEncoder().encode(`Note ${i} : le loyer est de 850 euros.\n`);

describe("one set of upload limits per person, whatever the door", () => {
  test("/v1 file parts count in the page's 60 uploads per 10 minutes: past them, a /v1 file is a 429", async () => {
    const t = await apiApp(fakes());
    for (let i = 0; i < 60; i++) expect((await upload(t, note(i), `note-${i}.txt`)).status).toBe(201);
    const e = await apiError(
      t.openai.chat.completions.create({
        model: "unisson",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Lis ceci." },
              { type: "file", file: { filename: "encore.txt", file_data: `data:text/plain;base64,${Buffer.from(note(61)).toString("base64")}` } },
            ],
          },
        ],
      }),
    );
    expect(e.status).toBe(429);
    expect(e.message).toContain("Trop de tentatives d'envoi de fichiers : 60 au plus en 10 minutes.");
  });
});
