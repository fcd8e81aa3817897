import { describe, expect, test } from "bun:test";
import parsePrometheusTextFormat, { type PromFamily } from "parse-prometheus-text-format";
import { onPostgres } from "../../helpers/test-database.ts";
import { acquireLease } from "../../../src/system/lease.ts";
import { createTestApp } from "../../helpers/app.ts";
import { askReady, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";

const fakes = useFakeProviders();
const TOKEN = "jeton-de-scrape-0123456789";
type App = { call: Awaited<ReturnType<typeof createTestApp>>["call"] };

async function scrapeText(t: App): Promise<string> {
  const res = await t.call("GET", "/metrics", { token: TOKEN });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.body as string;
}

/** Parsed as a scraper would: a malformed line throws. */
async function scrape(t: App): Promise<PromFamily[]> {
  return parsePrometheusTextFormat(await scrapeText(t));
}

function family(all: PromFamily[], name: string): PromFamily {
  const f = all.find((x) => x.name === name);
  if (!f) throw new Error(`no ${name} in ${all.map((x) => x.name).join(", ")}`);
  return f;
}

/**
 * The requests counted by the latency histogram for these labels, read from the
 * text: the parser folds a labelled histogram's series into one sample.
 */
function requests(text: string, labels: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`unisson_http_request_duration_seconds_count{${labels}}`));
  return line ? Number(line.split(" ").pop()) : 0;
}

/** The sample of `name` whose labels include `labels`, 0 when absent. */
function sample(all: PromFamily[], name: string, labels: Record<string, string>): number {
  const m = family(all, name).metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
  return Number(m?.count ?? m?.value ?? 0);
}

describe("GET /metrics", () => {
  test("off without METRICS_TOKEN: no such endpoint", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/metrics", { token: TOKEN });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Point d'accès introuvable." });
  });

  test("a missing or wrong token is refused in French", async () => {
    const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    for (const token of [undefined, "jeton-de-scrape-012345678X"]) {
      const res = await t.call("GET", "/metrics", { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: "Jeton des métriques absent ou incorrect." });
    }
  });

  test("Prometheus text that moves with the traffic: requests by route and status, with latency", async () => {
    const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    const warmup = 'method="GET",route="/api/warmup",status="200"';
    const base = requests(await scrapeText(t), warmup);
    await t.call("GET", "/api/warmup");
    await t.call("GET", "/api/warmup");
    await t.call("GET", "/api/nulle-part");
    const text = await scrapeText(t);
    const after = parsePrometheusTextFormat(text);
    expect(family(after, "unisson_http_request_duration_seconds").type).toBe("HISTOGRAM");
    expect(requests(text, warmup)).toBe(base + 2);
    expect(requests(text, 'method="GET",route="/api/*",status="404"')).toBe(1);
    expect(text).toContain(`unisson_http_request_duration_seconds_bucket{le="+Inf",${warmup}} ${base + 2}`);
    for (const name of ["unisson_sqlite_busy_total", "unisson_final_processings_in_flight", "unisson_final_processings"])
      expect(family(after, name)).toBeDefined();
  });

  test("per-model calls, latency and tokens, and final processings by state, move when an answer is made", async () => {
    const t = await chatApp(fakes(), { env: { METRICS_TOKEN: TOKEN } });
    fakes().control.set("mistralLarge", { fail: 500, failOn: ["answer"] });
    const id = await askReady(t);
    expect((await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } })).status).toBe(200);
    const m = await scrape(t);
    expect(sample(m, "unisson_ai_calls_total", { model: "GPT-4", purpose: "answer", outcome: "ok" })).toBe(1);
    expect(sample(m, "unisson_ai_calls_total", { model: "Mistral Large", purpose: "answer", outcome: "error" })).toBe(1);
    expect(family(m, "unisson_ai_call_duration_seconds").type).toBe("HISTOGRAM");
    expect(sample(m, "unisson_ai_tokens_total", { model: "GPT-4", direction: "out" })).toBeGreaterThan(0);
    expect(sample(m, "unisson_final_processings", { status: "done" })).toBe(1);
    expect(sample(m, "unisson_final_processings_in_flight", {})).toBe(0);
  });
});

describe("GET /api/health/ready", () => {
  test("ready with the lease held, the schema current, the database writable and two models or more", async () => {
    const t = await chatApp(fakes());
    t.deps.lease = await acquireLease(t.db, t.clock.now(), null);
    const res = await t.call("GET", "/api/health/ready");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ready", checks: { database_writable: true, migrations_current: true, lease_held: true, models_available: 6 } });
  });

  test("not ready without the lease", async () => {
    const noLease = await chatApp(fakes());
    const a = await noLease.call("GET", "/api/health/ready");
    // The lease is SQLite's single-server guard; PostgreSQL has none to hold (several servers share it), so ready there.
    if (onPostgres) {
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ status: "ready", checks: { lease_held: true } });
    } else {
      expect(a.status).toBe(503);
      expect(a.body).toMatchObject({ detail: "Service pas encore prêt.", checks: { lease_held: false } });
    }
  });

  test("not ready with fewer than two models", async () => {
    const oneModel = await createTestApp({ env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fakes().env.OPENAI_BASE_URL! } });
    oneModel.deps.lease = await acquireLease(oneModel.db, oneModel.clock.now(), null);
    const b = await oneModel.call("GET", "/api/health/ready");
    expect(b.status).toBe(503);
    expect(b.body.checks).toMatchObject({ lease_held: true, models_available: 1 });
  });
});
