import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { count } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { processingRuns } from "../db/schema/index.ts";

/**
 * The process's Prometheus metrics (prom-client), served by GET /metrics.
 * One registry per Deps, so test apps never mix their counts; the server has one.
 */
export function createMetrics() {
  const registry = new Registry();
  const http = new Histogram({
    name: "unisson_http_request_duration_seconds",
    help: "Durée des requêtes HTTP par route et code",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const aiCalls = new Counter({
    name: "unisson_ai_calls_total",
    help: "Appels aux modèles par modèle, usage et issue",
    labelNames: ["model", "purpose", "outcome"] as const,
    registers: [registry],
  });
  const aiLatency = new Histogram({
    name: "unisson_ai_call_duration_seconds",
    help: "Durée des appels aux modèles",
    labelNames: ["model", "purpose"] as const,
    buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
    registers: [registry],
  });
  const aiTokens = new Counter({
    name: "unisson_ai_tokens_total",
    help: "Jetons consommés par modèle et sens",
    labelNames: ["model", "direction"] as const,
    registers: [registry],
  });
  const sqliteBusy = new Counter({
    name: "unisson_sqlite_busy_total",
    help: "Écritures refusées (503) car la base était verrouillée par un autre processus",
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: "unisson_job_runs_total",
    help: "Exécutions des tâches planifiées, par tâche et issue",
    labelNames: ["job", "outcome"] as const,
    registers: [registry],
  });
  return { registry, http, aiCalls, aiLatency, aiTokens, sqliteBusy, jobRuns };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Gauges read at scrape time from what the process already knows: runs in
 * flight (memory) and final processings by state (one grouped count, the
 * table's own status index), so no business code has to count for them.
 */
export function bindMetrics(metrics: Metrics, live: { size: number }, db: Db): void {
  if (metrics.registry.getSingleMetric("unisson_final_processings")) return;
  new Gauge({
    name: "unisson_final_processings_in_flight",
    help: "Traitements finaux en cours dans ce processus",
    registers: [metrics.registry],
    collect() {
      this.set(live.size);
    },
  });
  new Gauge({
    name: "unisson_final_processings",
    help: "Traitements finaux enregistrés, par état (running, done, failed)",
    labelNames: ["status"] as const,
    registers: [metrics.registry],
    async collect() {
      const rows = await db.select({ status: processingRuns.status, n: count() }).from(processingRuns).groupBy(processingRuns.status);
      this.reset();
      for (const r of rows) this.set({ status: r.status }, r.n);
    },
  });
}
