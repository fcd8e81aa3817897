import { describe, expect, test } from "bun:test";
import { askReady, type ChatApp, chatApp, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const process = (t: ChatApp, id: number) => t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });

describe("the notice above an answer says exactly what happened", () => {
  test("every model answered, another synthesiser wrote it: only « Synthèse rédigée par X à la place de Y », never partial", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("claudeOpus", { fail: 500, failOn: ["synthesis"] });
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(200);
    expect(res.body.degraded_notice).toBe("Synthèse rédigée par GPT-4 à la place de Claude Opus 4.1.");
    expect(res.body.final_response).toStartWith("> Synthèse rédigée par GPT-4 à la place de Claude Opus 4.1.\n\n## Réponse consolidée");
  });

  test("an answer missing and another synthesiser: partial, who is missing, and who wrote it", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("claudeOpus", { fail: 500, failOn: ["synthesis"] });
    fakes().control.set("geminiPro", { fail: "refusal", failOn: ["answer"] });
    const res = await process(t, await askReady(t));
    expect(res.body.degraded_notice).toBe(
      "**Réponse partielle** : synthèse établie à partir de 5 réponses sur 6. Sans réponse : Gemini Pro (refus du modèle). Synthèse rédigée par GPT-4 à la place de Claude Opus 4.1.",
    );
  });
});
