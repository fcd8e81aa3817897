import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { aiCalls } from "../../../src/db/schema/index.ts";
import { defaultRanking } from "../../fakes/ai/control.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { readSse } from "../../helpers/sse.ts";
import { askReady, type ChatApp, chatApp, runAskedModels, useFakeProviders } from "./chat.helpers.ts";
import { peerReviewOn } from "./peer-review.helpers.ts";

const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";
const KEYS = ["gpt4", "claudeHaiku", "claudeOpus", "geminiPro", "mistralLarge", "sonarPro"] as const;

/** One question through /process; the stored answer's result_data. */
async function answer(t: ChatApp) {
  const id = await askReady(t);
  const res = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
  expect(res.status).toBe(200);
  return res.body.message.result_data;
}

/** The ai_calls rows of the ranking calls (of one member). */
async function rankingRows(t: ChatApp, model?: string) {
  const ranking = eq(aiCalls.purpose, "peer_review");
  return await t.db
    .select()
    .from(aiCalls)
    .where(model ? and(ranking, eq(aiCalls.model, model)) : ranking);
}

describe("peer review (« Délibération »), a council setting", () => {
  test("off by default: no ranking call, no ranking in the answer", async () => {
    const t = await chatApp(fakes());
    const data = await answer(t);
    expect(fakes().control.callsOf("ranking")).toHaveLength(0);
    expect(data.peer_review).toBeUndefined();
    expect(await rankingRows(t)).toHaveLength(0);
    expect(fakes().control.callsOf("synthesis")[0]!.messages.at(-1)!.content).not.toContain("Classement par les pairs");
  });

  test("on: each member ranks the five others' anonymised answers, never its own", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    for (const key of KEYS) fakes().control.set(key, { answer: `Paris, dit le texte ${key}.` });
    await answer(t);
    const calls = fakes().control.callsOf("ranking");
    expect(calls.map((c) => c.model).sort()).toEqual([...KEYS].sort());
    for (const call of calls) {
      const prompt = call.messages.at(-1)!.content;
      expect(prompt.match(/^Réponse [A-F] :$/gm)).toHaveLength(5);
      for (const key of KEYS) expect(prompt.includes(`texte ${key}.`)).toBe(key !== call.model);
      expect(`${call.system}\n${prompt}`).not.toMatch(/GPT|Claude|Gemini|Mistral|Sonar|OpenAI|Anthropic|Perplexity/);
    }
  });

  test("on: the aggregate ranking (average rank) is stored with the answer, by label and model", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    const data = await answer(t);
    const review = data.peer_review;
    // Every fake ranks the answers it sees in alphabetical order: A is first for the five that see it.
    expect(review.ranking.map((r: { label: string }) => r.label)).toEqual(["A", "B", "C", "D", "E", "F"]);
    expect(review.ranking[0]).toEqual({ label: "A", name: data.labels.A, average_rank: 1, votes: 5 });
    // B: first for A's writer, second for the four others.
    expect(review.ranking[1].average_rank).toBe(1.8);
    expect(review.failures).toEqual([]);
    expect(review.rankers).toHaveLength(6);
  });

  test("on: the synthesiser is given the ranking, by label only", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    await answer(t);
    const [synthesis] = fakes().control.callsOf("synthesis");
    const prompt = synthesis!.messages.at(-1)!.content;
    expect(prompt).toContain("Classement par les pairs");
    expect(prompt).toContain("1. Réponse A : rang moyen 1 (5 classements)");
    expect(prompt).toContain("2. Réponse B : rang moyen 1,8 (5 classements)");
    expect(prompt.slice(prompt.indexOf("Classement par les pairs"))).not.toMatch(/GPT|Claude|Gemini|Mistral|Sonar/);
    // The ranking ends the synthesis's input: it is asked after every answer is in and every ranking ended.
    const lastRanking = Math.max(
      ...fakes()
        .control.callsOf("ranking")
        .map((c) => c.at),
    );
    expect(synthesis!.at).toBeGreaterThanOrEqual(lastRanking);
  });

  test("on: each ranking call is costed and logged in ai_calls, and in the answer's cost", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    const data = await answer(t);
    const rows = await rankingRows(t);
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.outcome).toBe("ok");
      expect(row.costEur).toBeGreaterThan(0);
      expect(row.tokensOut).toBeGreaterThan(0);
    }
    const rankingCost = rows.reduce((s, r) => s + (r.costEur ?? 0), 0);
    expect(data.peer_review.cost_eur).toBeCloseTo(rankingCost, 10);
    // The run's calls: answers, rankings, synthesis (the clarification pre-pass is the question's, not the run's).
    const run = (await t.db.select().from(aiCalls)).filter((r) => r.purpose !== "clarification");
    expect(data.cost_eur).toBeCloseTo(
      run.reduce((s, r) => s + (r.costEur ?? 0), 0),
      10,
    );
  });

  test("on: the admin's average cost per answer counts the rankings", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const data = await answer(t);
    const costs = (await t.call("GET", "/api/admin/ai-costs", { token: admin.token })).body;
    expect(costs.average_per_answer_eur).toBeCloseTo(data.cost_eur, 4);
    expect(costs.average_per_answer_eur).toBeGreaterThan(data.cost_eur - data.peer_review.cost_eur + 0.00005);
  });

  test("a member whose ranking call fails is named, and the answer comes with the others' ranking", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    fakes().control.set("gpt4", { fail: 500, failOn: ["ranking"] });
    const data = await answer(t);
    expect(data.final_response).toContain("## Réponse consolidée");
    expect(data.peer_review.failures).toEqual(["GPT-4 n'a pas classé les réponses"]);
    const gpt = data.peer_review.rankers.find((r: { name: string }) => r.name === "GPT-4");
    expect(gpt.ranked).toBe(false);
    expect(gpt.error).toBeTruthy();
    expect(data.peer_review.ranking).toHaveLength(6);
    // GPT-4 answered: the answer itself is not degraded by a failed ranking.
    expect(data.available_ais).toContain("GPT-4");
    expect(data.degraded).toBeNull();
  });

  test("an unreadable ranking is named and logged with its reason", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    fakes().control.ranking = (prompt, model) => (model === "mistralLarge" ? "Toutes ces réponses se valent." : defaultRanking(prompt));
    const data = await answer(t);
    expect(data.peer_review.failures).toEqual(["Mistral Large n'a pas classé les réponses"]);
    const [row] = await rankingRows(t, "Mistral Large");
    expect(row!.outcome).toBe("error");
    expect(row!.error).toContain("classement illisible");
  });

  test("a ranker that never answers is named; the answer still comes", async () => {
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "3000" } });
    await peerReviewOn(t);
    fakes().control.set("sonarPro", { fail: "hang", failOn: ["ranking"] });
    const data = await answer(t);
    expect(data.final_response).toContain("## Réponse consolidée");
    expect(data.peer_review.failures).toEqual(["Sonar Pro n'a pas classé les réponses"]);
    const [row] = await rankingRows(t, "Sonar Pro");
    // Its stall limit (1 s here) or the review's grace after the others ranked (1 s too), whichever ends it first.
    expect(["timeout", "cancelled"]).toContain(row!.outcome);
  });

  test("a slow ranker is not waited for once half the members ranked: named « non attendu », its call cancelled", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    // Far within its timeout and never silent long enough to stall: only the review's own soft deadline stops it.
    fakes().control.set("geminiPro", { rankingLatencyMs: 4_000 });
    const data = await answer(t);
    expect(data.peer_review.failures).toEqual(["Gemini Pro n'a pas classé les réponses"]);
    const gemini = data.peer_review.rankers.find((r: { name: string }) => r.name === "Gemini Pro");
    expect(gemini.error).toContain("non attendu");
    const [row] = await rankingRows(t, "Gemini Pro");
    expect(row!.outcome).toBe("cancelled");
    expect(data.peer_review.ranking).toHaveLength(6);
  });

  test("the conversation's exports carry the ranking and who did not rank", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    fakes().control.set("mistralLarge", { fail: 500, failOn: ["ranking"] });
    const id = await askReady(t);
    const data = (await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } })).body.message.result_data;
    const md = (await t.call("GET", `/api/unisson/conversation/${id}/export?format=md`, { token: t.token })).body as string;
    expect(md).toContain(`**Classement par les pairs :** 1. ${data.labels.A} (Réponse A, rang moyen 1) ; 2. ${data.labels.B} (Réponse B, rang moyen `);
    expect(md).toContain("Mistral Large n'a pas classé les réponses.");
    const json = (await t.call("GET", `/api/unisson/conversation/${id}/export?format=json`, { token: t.token })).body;
    const exported = json.messages.at(-1);
    expect(exported.peer_ranking[0]).toEqual({ name: data.labels.A, label: "A", average_rank: 1 });
    expect(exported.peer_review_failures).toEqual(["Mistral Large n'a pas classé les réponses"]);
  });

  test("the run's events carry the review: who ranks, then the ranking and who did not", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    fakes().control.set("claudeHaiku", { fail: 503, failOn: ["ranking"] });
    const id = await askReady(t);
    const res = await t.app.request(PROCESS, {
      method: "POST",
      headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ conversation_id: id }),
    });
    const { events } = await readSse(res);
    const types = events.map((e) => e.event);
    expect(types.indexOf("peer_review_started")).toBeGreaterThan(types.lastIndexOf("model_answered"));
    expect(types.indexOf("peer_review")).toBeLessThan(types.indexOf("synthesis_started"));
    expect(events.find((e) => e.event === "peer_review_started")!.data.models).toHaveLength(6);
    const review = events.find((e) => e.event === "peer_review")!.data;
    expect(review.failures).toEqual(["Claude 3 Haiku n'a pas classé les réponses"]);
    expect(review.ranking[0].label).toBe("A");
    // Replayed after the end, from the stored run.
    const replay = await readSse(await t.app.request(`/api/unisson/conversation/${id}/events`, { headers: { authorization: `Bearer ${t.token}` } }));
    expect(replay.events.find((e) => e.event === "peer_review")!.data.failures).toEqual(review.failures);
  });

  test("turned on during a run: that run goes without it, the next question has it", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ latencyMs: 300 });
    const first = await askReady(t);
    const running = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: first } });
    await runAskedModels(fakes());
    await peerReviewOn(t);
    expect((await running).body.message.result_data.peer_review).toBeUndefined();
    expect(fakes().control.callsOf("ranking")).toHaveLength(0);
    expect((await answer(t)).peer_review.ranking).toHaveLength(6);
  });

  test("with only two answers there is nothing to compare: no ranking call", async () => {
    const t = await chatApp(fakes());
    await peerReviewOn(t);
    for (const m of ["gpt4", "claudeHaiku", "geminiPro", "sonarPro"] as const) fakes().control.set(m, { fail: 500 });
    const data = await answer(t);
    expect(fakes().control.callsOf("ranking")).toHaveLength(0);
    expect(data.peer_review).toBeUndefined();
  });
});
