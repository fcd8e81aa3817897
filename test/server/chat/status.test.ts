import { describe, expect, test } from "bun:test";
import { probeModels } from "../../../src/ai/probe.job.ts";
import { createTestApp } from "../../helpers/app.ts";
import { askReady, chatApp, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const NAMES = ["GPT-4", "Claude 3 Haiku", "Claude Opus 4.1", "Gemini Pro", "Mistral Large", "Sonar Pro"];

describe("GET /api/unisson/status and /models", () => {
  test("without any key: six models KO and the system in maintenance", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/api/unisson/status");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ai_status: NAMES.map((name) => ({ name, available: false })),
      system_operational: false,
      web_search: { available: false, default: false },
    });
  });

  test("/models lists the six models with provider and French specialty, plus the status", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/api/unisson/models");
    expect(res.body.models.map((m: { name: string }) => m.name)).toEqual(NAMES);
    expect(res.body.models[5]).toEqual({ name: "Sonar Pro", provider: "Perplexity", specialty: "Recherche web en temps réel, avec sources" });
    expect(res.body.system_operational).toBe(false);
    expect(res.body.ai_status).toHaveLength(6);
  });

  test("at start, a model with a key counts as available before any call", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("GET", "/api/unisson/status");
    expect(res.body.ai_status.every((s: { available: boolean }) => s.available)).toBe(true);
    expect(res.body.system_operational).toBe(true);
  });

  test("status is served from cache: no upstream call, even while providers are down", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: 500 });
    for (let i = 0; i < 20; i++) await t.call("GET", i % 2 ? "/api/unisson/status" : "/api/unisson/models");
    const res = await t.call("GET", "/api/unisson/status");
    expect(res.body.system_operational).toBe(true);
    expect(fakes().control.calls).toHaveLength(0);
  });

  test("a failing probe marks its model KO; the others stay OK", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("geminiPro", { fail: 401 });
    await probeModels(t.deps);
    const res = await t.call("GET", "/api/unisson/status");
    expect(res.body.ai_status.find((s: { name: string }) => s.name === "Gemini Pro").available).toBe(false);
    expect(res.body.ai_status.filter((s: { available: boolean }) => s.available)).toHaveLength(5);
  });

  test("probes of every provider failing put the system in maintenance", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: 500 });
    await probeModels(t.deps);
    const res = await t.call("GET", "/api/unisson/status");
    expect(res.body.system_operational).toBe(false);
  });

  test("a failed model is not probed again before its backoff, then comes back once it answers", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("mistralLarge", { fail: 500 });
    await probeModels(t.deps);
    fakes().control.reset();
    await probeModels(t.deps);
    expect(fakes().control.calls).toHaveLength(0);
    t.clock.advance(31_000);
    await probeModels(t.deps);
    expect(
      fakes()
        .control.callsOf("probe")
        .map((c) => c.model),
    ).toEqual(["mistralLarge"]);
    const res = await t.call("GET", "/api/unisson/status");
    expect(res.body.ai_status.find((s: { name: string }) => s.name === "Mistral Large").available).toBe(true);
  });

  // Issue 19: one failed request no longer opens the circuit; three within the window do.
  test("a model that failed in three final processings shows KO until a probe succeeds", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("sonarPro", { fail: 500, failOn: ["answer"] });
    const sonar = async () => (await t.call("GET", "/api/unisson/status")).body.ai_status.find((s: { name: string }) => s.name === "Sonar Pro").available;
    for (let i = 0; i < 3; i++) {
      expect(await sonar()).toBe(true);
      const id = await askReady(t, `Question numéro ${i} sur la géographie de la France`);
      await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    }
    expect(await sonar()).toBe(false);
  });

  test("a model marked KO is not asked in the next final processing", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("sonarPro", { fail: 401 });
    await probeModels(t.deps);
    fakes().control.calls = [];
    const id = await askReady(t);
    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(res.body.available_ais).not.toContain("Sonar Pro");
    expect(fakes().control.callsOf("answer", "sonarPro")).toHaveLength(0);
  });

  test("the probe job only calls configured providers", async () => {
    const { env } = fakes();
    const t = await createTestApp({ env: { MISTRAL_API_KEY: env.MISTRAL_API_KEY, MISTRAL_BASE_URL: env.MISTRAL_BASE_URL } });
    await probeModels(t.deps);
    expect(fakes().control.calls.map((c) => c.provider)).toEqual(["mistral"]);
  });
});
