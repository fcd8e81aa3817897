import { describe, expect, test } from "bun:test";
import { errorMessage } from "../../../src/lib/errors.ts";
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
      "**Réponse partielle** : synthèse établie à partir de 5 réponses sur 6. A refusé de répondre : Gemini Pro. Synthèse rédigée par GPT-4 à la place de Claude Opus 4.1.",
    );
  });
});

describe("too few answers because the members declined: said as a refusal, not as an outage (issue 43's try-out)", () => {
  test("every member declines: COUNCIL_DECLINED, not « Trop peu d'IA ont répondu… réessayer »", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: "refusal", failOn: ["answer"] });
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe(errorMessage("COUNCIL_DECLINED"));
    expect(res.body.detail).not.toContain("Trop peu d'IA");
  });

  test("one answer, the others declined: the detail names who declined", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: "refusal", failOn: ["answer"] });
    fakes()
      .control.set("gpt4", { fail: null })
      .set("claudeOpus", { fail: 500, failOn: ["answer"] });
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(503);
    expect(res.body.detail).toStartWith(
      "Claude 3 Haiku, Gemini Pro, Mistral Large et Sonar Pro ont refusé de répondre à cette question, et trop peu d'IA ont répondu pour établir une synthèse fiable",
    );
    expect(res.body.detail).toContain("n'a pas été décomptée");
  });

  test("one refusal among outages: the outage is why, the text stays « Trop peu d'IA ont répondu »", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: 500, failOn: ["answer"] });
    fakes().control.set("gpt4", { fail: "refusal", failOn: ["answer"] });
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe(errorMessage("NOT_ENOUGH_ANSWERS"));
  });
});
