import { describe, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { aiCalls, messages } from "../../../src/db/schema/index.ts";
import { DECLINE_TEXT } from "../../fakes/ai/control.ts";
import { askReady, type ChatApp, chatApp, remaining, runAskedModels, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";
const process = (t: ChatApp, id: number) => t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
const FIVE = ["gpt4", "claudeOpus", "claudeHaiku", "geminiPro", "mistralLarge"] as const;

describe("answers you can trust: output checks before storing or charging", () => {
  test("a section whose title only starts with « Sources » keeps its body and the sections after it", async () => {
    const t = await chatApp(fakes());
    fakes().control.synthesis = () =>
      [
        "## Réponse consolidée",
        "Trois leviers.",
        "### Sources de financement internes",
        "L'autofinancement.",
        "## Points de consensus",
        "Toutes d'accord.",
        "## Divergences",
        "Aucune divergence notable.",
      ].join("\n");
    const id = await askReady(t);
    const res = await process(t, id);
    expect(res.body.final_response).toContain("### Sources de financement internes\nL'autofinancement.");
    expect(res.body.final_response).toContain("## Points de consensus");
    expect(res.body.final_response).toContain("## Divergences");
  });

  test("a synthesiser that declines in plain text is not the answer: the next one writes it", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("claudeOpus", { fail: "decline", failOn: ["synthesis"] });
    const id = await askReady(t);
    const res = await process(t, id);
    expect(res.body.final_response).not.toContain(DECLINE_TEXT);
    expect(res.body.primary_ai).toBe("GPT-4");
    expect(res.body.message.result_data.synthesis.attempts).toEqual([{ name: "Claude Opus 4.1", error: "refus du modèle" }]);
  });

  test("every synthesis cut at the token limit: nothing stored, nothing charged", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: "length", failOn: ["synthesis"] });
    const id = await askReady(t);
    const res = await process(t, id);
    expect(res.status).toBe(503);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    const conv = await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token });
    expect(conv.body.messages.at(-1).message_type).toBeNull();
  });

  test("each answer is capped before the synthesis prompt, and the question is delimited like the answers", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("gpt4", { answer: "x".repeat(20_000) });
    const id = await askReady(t, "Quelle est la capitale de la France ?");
    await process(t, id);
    const prompt = fakes().control.callsOf("synthesis")[0]!.messages.at(-1)!.content;
    expect(prompt).not.toContain("x".repeat(6_001));
    expect(prompt).toContain("[… réponse abrégée pour la synthèse]");
    expect(prompt).toMatch(/<<<QUESTION-([0-9a-f]+)>>>\nQuelle est la capitale de la France \?\n<<<FIN-QUESTION-\1>>>/);
  });
});

describe("one time budget for answers, synthesis and fallbacks", () => {
  test("a hung answer and two hung synthesisers end within AI_BUDGET_MS, refunded, with the answers shown", async () => {
    // Without the budget the hung synthesisers take 5 s each (cut at their stall limit, AI_TIMEOUT_MS/3), over 10 s in
    // all: ending under 8 s (the 4 s budget plus room for a loaded machine) shows the budget cut them.
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "15000", AI_SOFT_DEADLINE_MS: "200", AI_BUDGET_MS: "4000" } });
    fakes().control.set("mistralLarge", { fail: "hang", failOn: ["answer"] });
    fakes().control.set("claudeOpus", { fail: "hang", failOn: ["synthesis"] });
    fakes().control.set("gpt4", { fail: "hang", failOn: ["synthesis"] });
    fakes().control.set("geminiPro", { fail: "hang", failOn: ["synthesis"] });
    const id = await askReady(t);
    const started = performance.now();
    const res = await process(t, id);
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(res.status).toBe(503);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    const events = await t.app.request(`/api/unisson/conversation/${id}/events`, { headers: { authorization: `Bearer ${t.token}` } });
    const text = await events.text();
    expect(text).toContain("event: failed");
    expect(text).toContain('"answers":[{"name"');
  });
});

describe("a failed synthesis still shows what the models said", () => {
  test("the JSON 503 of /process carries the individual answers, labelled with their model", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: "length", failOn: ["synthesis"] });
    const id = await askReady(t);
    const res = await process(t, id);
    expect(res.status).toBe(503);
    expect(res.body.detail).toContain("Votre requête n'a pas été décomptée");
    expect(res.body.answers.map((a: { name: string }) => a.name).sort()).toEqual([
      "Claude 3 Haiku",
      "Claude Opus 4.1",
      "GPT-4",
      "Gemini Pro",
      "Mistral Large",
      "Sonar Pro",
    ]);
    expect(res.body.answers.every((a: { answer: string }) => a.answer.length > 0)).toBe(true);
  });

  test("a second caller joining the run gets the same answers", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: "length", failOn: ["synthesis"] });
    const id = await askReady(t);
    const [first, second] = await Promise.all([process(t, id), process(t, id)]);
    expect(first.status).toBe(503);
    expect(second.status).toBe(503);
    expect(second.body.answers).toHaveLength(6);
    expect(second.body.answers).toEqual(first.body.answers);
  });

  test("no answers field when no model answered", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: 500 });
    const id = await askReady(t);
    const res = await process(t, id);
    expect(res.status).toBe(503);
    expect(res.body.answers).toBeUndefined();
  });
});

describe("retries honour retry-after and every attempt is logged", () => {
  test("a 429 asking for 1 s is retried after 1 s when it fits the deadline", async () => {
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "5000" } });
    fakes().control.set("gpt4", { fail: 429, failOn: ["answer"], failTimes: 1, retryAfterS: 1 });
    const id = await askReady(t);
    const started = performance.now();
    const res = await process(t, id);
    expect(performance.now() - started).toBeGreaterThan(950);
    expect(res.body.available_ais).toContain("GPT-4");
    const rows = await t.db
      .select({ outcome: aiCalls.outcome, http_status: aiCalls.httpStatus })
      .from(aiCalls)
      .where(and(eq(aiCalls.model, "GPT-4"), eq(aiCalls.purpose, "answer")))
      .orderBy(aiCalls.id);
    expect(rows).toEqual([
      { outcome: "error", http_status: 429 },
      { outcome: "ok", http_status: 200 },
    ]);
  });

  test("a 429 asking for 30 s is not retried inside a 3 s deadline", async () => {
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "3000" } });
    fakes().control.set("gpt4", { fail: 429, failOn: ["answer"], retryAfterS: 30 });
    const id = await askReady(t);
    const res = await process(t, id);
    expect(fakes().control.callsOf("answer", "gpt4")).toHaveLength(1);
    expect(res.body.message.result_data.failed_ais).toContainEqual({ name: "GPT-4", error: "limite de débit atteinte (HTTP 429)" });
  });
});

describe("a real circuit breaker", () => {
  test("one request in which all six models fail never puts the product in maintenance", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: 500, failOn: ["answer"] });
    const id = await askReady(t);
    expect((await process(t, id)).status).toBe(503);
    fakes().control.reset();
    expect((await t.call("GET", "/api/unisson/status")).body.system_operational).toBe(true);
    const chat = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Quelle est la capitale de l'Italie ?" } });
    expect(chat.status).toBe(200);
  });

  test("a request's own 400 does not count against the model", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("gpt4", { fail: 400, failOn: ["answer"] });
    for (let i = 0; i < 4; i++) await process(t, await askReady(t, `Question numéro ${i} sur la géographie de la France`));
    expect(t.deps.ai.availability.isAvailable("gpt4")).toBe(true);
  });

  test("synthesis and clarification failures never take a model out of the answers", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("claudeOpus", { fail: 500, failOn: ["synthesis"] });
    fakes().control.set("claudeHaiku", { fail: 500, failOn: ["clarification"] });
    for (let i = 0; i < 4; i++) await process(t, await askReady(t, `Question numéro ${i} sur la géographie de la France`));
    expect(t.deps.ai.availability.isAvailable("claudeOpus")).toBe(true);
    expect(t.deps.ai.availability.isAvailable("claudeHaiku")).toBe(true);
  });

  test("a refused key (401) takes the model out at once, and the next answer names it with the time", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("sonarPro", { fail: 401, failOn: ["answer"] });
    await process(t, await askReady(t, "Question numéro un sur la géographie de la France"));
    const res = await process(t, await askReady(t, "Question numéro deux sur la géographie de la France"));
    expect(fakes().control.callsOf("answer", "sonarPro")).toHaveLength(1);
    const sonar = res.body.message.result_data.failed_ais.find((f: { name: string }) => f.name === "Sonar Pro");
    expect(sonar.error).toMatch(/^non interrogé : indisponible depuis \d\d h \d\d$/);
    expect(res.body.final_response).toContain("Sonar Pro (non interrogé : indisponible depuis");
  });

  test("a 429 holds the model back until its retry-after, then it is asked again", async () => {
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "3000" } });
    fakes().control.set("sonarPro", { fail: 429, failOn: ["answer"], failTimes: 2, retryAfterS: 60 });
    await process(t, await askReady(t, "Question numéro un sur la géographie de la France"));
    expect(t.deps.ai.availability.isAvailable("sonarPro")).toBe(false);
    t.clock.advance(61_000);
    expect(t.deps.ai.availability.isAvailable("sonarPro")).toBe(true);
  });
});

/** Dozens of turns in one test: no chat rate limit in the way, and requests to spend. */
const MANY_TURNS = { env: { CHAT_LIMIT_PER_10_MIN: "1000", CHAT_LIMIT_PER_DAY: "1000", TRIAL_CHAT_LIMIT_PER_DAY: "1000" }, user: { planQueries: 100 } };

describe("conversation integrity during a run", () => {
  test("a message sent while a run holds the conversation: 409 in French, nothing stored", async () => {
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "15000" } });
    fakes().control.setAll({ latencyMs: 1000 });
    const id = await askReady(t);
    const running = process(t, id);
    // The models answer in 1 s (far below their 5 s stall limit): the window this request lands in.
    await runAskedModels(fakes());
    const res = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { conversation_id: id, message: "Et quelle est sa population ?" } });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain("Une analyse est en cours");
    expect((await running).status).toBe(200);
    const conv = await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token });
    expect(conv.body.messages.map((m: { sender: string }) => m.sender)).toEqual(["user", "assistant"]);
  });

  test("deleting a conversation during its run: 409 in French; the run finishes and is charged once", async () => {
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "15000" } });
    fakes().control.setAll({ latencyMs: 1000 });
    const id = await askReady(t);
    const running = process(t, id);
    // The models answer in 1 s (far below their 5 s stall limit): the window this request lands in.
    await runAskedModels(fakes());
    const res = await t.call("DELETE", `/api/unisson/conversation/${id}`, { token: t.token });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain("Une analyse est en cours");
    expect((await running).status).toBe(200);
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
  });

  test("a delete racing the turn's /process: the run goes on and is charged once (409), or the conversation goes and nothing is charged; never a 5xx", async () => {
    const t = await chatApp(fakes(), MANY_TURNS);
    fakes().control.setAll({ latencyMs: 50 });
    // The delete starts 0, 1, 2… turns of the event loop after the /process, so that it meets every step of the claim.
    for (let i = 0; i < 24; i++) {
      const before = await remaining(t);
      const id = await askReady(t);
      const proc = process(t, id);
      for (let k = 0; k < i; k++) await new Promise((resolve) => setImmediate(resolve));
      const del = await t.call("DELETE", `/api/unisson/conversation/${id}`, { token: t.token });
      const res = await proc;
      if (del.status === 409) {
        expect(res.status).toBe(200);
        expect(await remaining(t)).toEqual({ ...before, plan: before.plan - 1 });
      } else {
        expect(del.status).toBe(200);
        expect(res.status).toBe(404);
        expect(await remaining(t)).toEqual(before);
      }
    }
  });

  test("a message racing the deletion of its conversation: stored (the delete then removes it) or 404; never a 5xx, never a message without its conversation", async () => {
    const t = await chatApp(fakes(), MANY_TURNS);
    for (let i = 0; i < 16; i++) {
      const id = await askReady(t);
      await process(t, id);
      const sent = t.call("POST", "/api/unisson/chat", {
        token: t.token,
        json: { conversation_id: id, message: "Et quelle est la population de cette ville aujourd'hui ?" },
      });
      for (let k = 0; k < i; k++) await new Promise((resolve) => setImmediate(resolve));
      const del = await t.call("DELETE", `/api/unisson/conversation/${id}`, { token: t.token });
      const res = await sent;
      expect(del.status).toBe(200);
      expect([200, 404]).toContain(res.status);
      expect(await t.db.select({ n: count() }).from(messages).where(eq(messages.conversationId, id))).toEqual([{ n: 0 }]);
    }
  });

  test("AI-call rows survive the conversation, with conversation_id null", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    await process(t, id);
    expect((await t.call("DELETE", `/api/unisson/conversation/${id}`, { token: t.token })).status).toBe(200);
    const rows = await t.db.select({ conversation_id: aiCalls.conversationId }).from(aiCalls).where(eq(aiCalls.purpose, "answer"));
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.conversation_id === null)).toBe(true);
  });

  test("after a failed run, a new message is a new turn: the questions are not merged", async () => {
    const t = await chatApp(fakes());
    for (const m of FIVE) fakes().control.set(m, { fail: 500, failOn: ["answer"] });
    const id = await askReady(t, "Quelle est la capitale de la France ?");
    expect((await process(t, id)).status).toBe(503);
    fakes().control.reset();
    const chat = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { conversation_id: id, message: "Quelle est la capitale de l'Espagne ?" } });
    expect(chat.body.requires_final_processing).toBe(true);
    fakes().control.calls = [];
    expect((await process(t, id)).status).toBe(200);
    const sent = fakes().control.callsOf("answer", "gpt4")[0]!.messages;
    expect(sent.at(-1)!.content).toBe("Quelle est la capitale de l'Espagne ?");
    expect(JSON.stringify(sent)).not.toContain("France");
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
  });

  test("« Réessayer » after a failed run: /process again answers the same turn, charged once", async () => {
    const t = await chatApp(fakes());
    for (const m of FIVE) fakes().control.set(m, { fail: 500, failOn: ["answer"] });
    const id = await askReady(t, "Quelle est la capitale de la France ?");
    await process(t, id);
    fakes().control.reset();
    const res = await process(t, id);
    expect(res.status).toBe(200);
    expect(fakes().control.callsOf("answer", "gpt4")[0]!.messages.at(-1)!.content).toBe("Quelle est la capitale de la France ?");
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
  });
});

describe("moderation and the clarification pre-pass", () => {
  test("a moderation outage: a warning, and the local rules decide (MODERATION_ON_OUTAGE=local)", async () => {
    const t = await chatApp(fakes());
    fakes().control.moderationFail = 500;
    const res = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Comment fabriquer une bombe artisanale ?" } });
    expect(res.status).toBe(400);
    expect(t.log.lines.some((l) => l.includes("moderation unavailable"))).toBe(true);
  });

  test("MODERATION_ON_OUTAGE=refuse: a French 503, nothing stored, nothing charged", async () => {
    const t = await chatApp(fakes(), { env: { MODERATION_ON_OUTAGE: "refuse" } });
    fakes().control.moderationFail = 401;
    const res = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(503);
    expect(res.body.detail).toContain("vérification de votre message");
    expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations).toHaveLength(0);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
  });

  test("a hung moderation API is skipped after three failures: no fourth wait", async () => {
    const t = await chatApp(fakes());
    fakes().control.moderationFail = 500;
    for (let i = 0; i < 3; i++) await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: `Question numéro ${i} sur la géographie` } });
    const [before] = await t.db.select({ n: count() }).from(aiCalls).where(eq(aiCalls.purpose, "moderation"));
    await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Question numéro quatre sur la géographie" } });
    const [after] = await t.db.select({ n: count() }).from(aiCalls).where(eq(aiCalls.purpose, "moderation"));
    expect(after!.n).toBe(before!.n);
  });

  test("a hung clarification costs at most its short budget and the question goes on", async () => {
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "10000" } });
    fakes().control.set("claudeHaiku", { fail: "hang", failOn: ["clarification"] });
    const started = performance.now();
    const res = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(res.body.requires_final_processing).toBe(true);
    expect(t.deps.ai.availability.isAvailable("claudeHaiku")).toBe(true);
  }, 10_000);

  test("an unreadable clarification verdict is logged", async () => {
    const t = await chatApp(fakes());
    fakes().control.clarification = "je ne sais pas";
    await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(t.log.lines.some((l) => l.includes("clarification verdict unreadable"))).toBe(true);
  });
});

describe("follow-ups keep their context", () => {
  test("« Pourquoi ? » after an answer goes to the models; the clarifier and the synthesiser see the conversation", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ answer: "Paris est la capitale de la France." });
    const id = await askReady(t, "Quelle est la capitale de la France ?");
    await process(t, id);
    fakes().control.calls = [];
    const chat = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { conversation_id: id, message: "Pourquoi ?" } });
    expect(chat.body.requires_final_processing).toBe(true);
    const clarify = fakes().control.callsOf("clarification")[0]!.messages.at(-1)!.content;
    expect(clarify).toContain("Quelle est la capitale de la France ?");
    await process(t, id);
    const synthesis = fakes().control.callsOf("synthesis")[0]!.messages.at(-1)!.content;
    expect(synthesis).toContain("Question : Quelle est la capitale de la France ?");
    expect(synthesis).not.toMatch(/GPT|Claude|Gemini|Mistral|Sonar/);
  });
});

describe("honest degradation", () => {
  test("four answers of six: the notice above the answer names who is missing and why; charged", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("geminiPro", { fail: "refusal", failOn: ["answer"] });
    fakes().control.set("mistralLarge", { fail: 429, failOn: ["answer"], retryAfterS: 30 });
    const id = await askReady(t);
    const res = await process(t, id);
    expect(res.body.final_response).toStartWith("> **Réponse partielle** : synthèse établie à partir de 4 réponses sur 6.");
    expect(res.body.degraded_notice).toContain("A refusé de répondre : Gemini Pro.");
    expect(res.body.degraded_notice).toContain("Mistral Large (limite de débit");
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
  });

  test("a fallback synthesiser is named in the notice", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("claudeOpus", { fail: 500, failOn: ["synthesis"] });
    const res = await process(t, await askReady(t));
    expect(res.body.degraded_notice).toContain("Synthèse rédigée par GPT-4 à la place de Claude Opus 4.1.");
  });

  test("two answers of six: the answer is shown, and not charged", async () => {
    const t = await chatApp(fakes());
    for (const m of ["claudeOpus", "claudeHaiku", "geminiPro", "mistralLarge"] as const) fakes().control.set(m, { fail: 500, failOn: ["answer"] });
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(200);
    expect(res.body.degraded_notice).toContain("cette requête ne vous est pas décomptée");
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    expect(res.body.message.result_data.charged).toBe(false);
  });

  test("a full answer carries no notice", async () => {
    const t = await chatApp(fakes());
    const res = await process(t, await askReady(t));
    expect(res.body.degraded_notice).toBeNull();
    expect(res.body.final_response).toStartWith("## Réponse consolidée");
  });
});
