import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { findMember, setEnabled, setSynthesisers, updateMember, updateSettings } from "../../../src/council/council.store.ts";
import { aiCalls } from "../../../src/db/schema/index.ts";
import { askReady, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { addLlama, LLAMA, type Status } from "./council.helpers.ts";

/**
 * The council is data (issue 35), through HTTP: what the store changes, the
 * next question, the status and the model list follow without a restart.
 */
const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";

async function answer(t: Awaited<ReturnType<typeof chatApp>>) {
  const id = await askReady(t);
  const res = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
  expect(res.status).toBe(200);
  return res.body;
}

describe("the council, read at each question", () => {
  test("a seventh member added as openai-compatible answers the next question, no restart", async () => {
    const t = await chatApp(fakes());
    await answer(t);
    await addLlama(t, fakes());
    fakes().control.calls = [];
    const body = await answer(t);
    expect(body.available_ais).toContain(LLAMA.name);
    expect(
      fakes()
        .control.callsOf("answer")
        .map((c) => c.model),
    ).toContain(LLAMA.model);
    const models = body.message.result_data.models as Array<{ name: string; status: string; answer: string }>;
    expect(models.find((m) => m.name === LLAMA.name)).toMatchObject({ status: "answered", answer: expect.stringContaining("llama3.1") });
  });

  test("the seventh member is counted in the status and listed with its specialty", async () => {
    const t = await chatApp(fakes());
    await addLlama(t, fakes());
    const status = (await t.call("GET", "/api/unisson/status")).body as Status;
    expect(status.ai_status).toHaveLength(7);
    const models = (await t.call("GET", "/api/unisson/models")).body;
    expect(models.models.at(-1)).toEqual({ name: LLAMA.name, provider: "Compatible OpenAI", specialty: "Modèle local" });
  });

  test("its calls cost the prices set on the member", async () => {
    const t = await chatApp(fakes());
    await addLlama(t, fakes());
    await answer(t);
    const [call] = await t.db.select().from(aiCalls).where(eq(aiCalls.model, LLAMA.name));
    expect(call!.costEur).toBeCloseTo((call!.tokensIn! * 1 + call!.tokensOut! * 2) / 1_000_000, 12);
  });

  test("a disabled member is not called, not counted and not named as a failure", async () => {
    const t = await chatApp(fakes());
    await setEnabled(t.db, "Sonar Pro", false, t.clock.now());
    const body = await answer(t);
    expect(fakes().control.calls.filter((c) => c.model === "sonarPro")).toHaveLength(0);
    expect(JSON.stringify(body)).not.toContain("Sonar Pro");
    const status = (await t.call("GET", "/api/unisson/status")).body as Status;
    expect(status.ai_status.map((s) => s.name)).toEqual(["GPT-4", "Claude 3 Haiku", "Claude Opus 4.1", "Gemini Pro", "Mistral Large"]);
  });

  test("fewer than 2 enabled members: maintenance", async () => {
    const t = await chatApp(fakes());
    for (const name of ["GPT-4", "Claude 3 Haiku", "Claude Opus 4.1", "Gemini Pro", "Mistral Large"]) await setEnabled(t.db, name, false, t.clock.now());
    const status = (await t.call("GET", "/api/unisson/status")).body as Status;
    expect(status).toEqual({
      ai_status: [{ name: "Sonar Pro", available: true }],
      system_operational: false,
      web_search: { available: false, default: false },
    });
    const res = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(503);
    expect(res.body.detail).toContain("au moins 2 IA disponibles");
  });

  test("a renamed member shows its new name in the status, the model list and its answer", async () => {
    const t = await chatApp(fakes());
    await updateMember(t.db, "Mistral Large", { name: "Mistral Medium 3" }, t.clock.now());
    const status = (await t.call("GET", "/api/unisson/status")).body as Status;
    expect(status.ai_status.map((s) => s.name)).toContain("Mistral Medium 3");
    expect(status.ai_status.map((s) => s.name)).not.toContain("Mistral Large");
    const models = (await t.call("GET", "/api/unisson/models")).body.models.map((m: { name: string }) => m.name);
    expect(models).toContain("Mistral Medium 3");
    expect((await answer(t)).available_ais).toContain("Mistral Medium 3");
  });

  test("the synthesiser order decides who writes the synthesis", async () => {
    const t = await chatApp(fakes());
    await setSynthesisers(t.db, ["Mistral Large", "GPT-4"], t.clock.now());
    const body = await answer(t);
    expect(body.primary_ai).toBe("Mistral Large");
    expect(
      fakes()
        .control.callsOf("synthesis")
        .map((c) => c.model),
    ).toEqual(["mistralLarge"]);
  });

  test("a member that is no synthesiser never writes the synthesis, even when the synthesisers fail", async () => {
    const t = await chatApp(fakes());
    await setSynthesisers(t.db, ["Gemini Pro"], t.clock.now());
    fakes().control.set("geminiPro", { fail: 500, failOn: ["synthesis"] });
    const id = await askReady(t);
    const res = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    expect(res.status).toBe(503);
    // Tried (and retried, a 500 being transient) by Gemini Pro only.
    expect([
      ...new Set(
        fakes()
          .control.callsOf("synthesis")
          .map((c) => c.model),
      ),
    ]).toEqual(["geminiPro"]);
  });

  test("the clarifier the council names asks the clarifying questions", async () => {
    const t = await chatApp(fakes());
    await updateSettings(t.db, { clarifierMemberId: (await findMember(t.db, "Gemini Pro"))!.id });
    await askReady(t);
    expect(
      fakes()
        .control.callsOf("clarification")
        .map((c) => c.model),
    ).toEqual(["geminiPro"]);
  });
});

describe("truthful names", () => {
  test("a seeded member pointed at another model id by MODEL_* shows that model id, never its old name", async () => {
    const t = await chatApp(fakes(), { env: { MODEL_GPT4: "gpt-4.1" } });
    const status = (await t.call("GET", "/api/unisson/status")).body as Status;
    expect(status.ai_status.map((s) => s.name)).toEqual(["gpt-4.1", "Claude 3 Haiku", "Claude Opus 4.1", "Gemini Pro", "Mistral Large", "Sonar Pro"]);
    const body = await answer(t);
    expect(body.available_ais).toContain("gpt-4.1");
    expect(JSON.stringify(body)).not.toContain("GPT-4");
  });

  test("a name the operator chose is shown as chosen", async () => {
    const t = await chatApp(fakes(), { env: { MODEL_GPT4: "gpt-4.1" } });
    await updateMember(t.db, "GPT-4", { name: "GPT-4.1" }, t.clock.now());
    const status = (await t.call("GET", "/api/unisson/status")).body as Status;
    expect(status.ai_status[0]!.name).toBe("GPT-4.1");
  });
});
