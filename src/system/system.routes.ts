import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { answerJson } from "../lib/answer-headers.ts";
import { errorMessage } from "../lib/errors.ts";
import { readiness } from "./readiness.ts";
import { pingDatabase, warmDatabase } from "../db/health.ts";
import { APP_VERSION } from "../contracts/version.ts";

export { APP_VERSION };

/** /api/health's answer, the same for the life of the process. */
const HEALTHY: { status: string; version: string } = { status: "ok", version: APP_VERSION };

export const systemRoutes = new Hono<AppEnv>()
  .get("/health", (c) => {
    // A cheap real read: a healthy process with a broken database is not healthy. On SQLite it answers at once: no async frame.
    // Polled by load balancers: its answer is made with the pipeline's headers in place (answer-headers.ts).
    const pinging = pingDatabase(c.get("deps").db);
    if (!pinging) return answerJson(c, HEALTHY, 200);
    return (async () => {
      await pinging;
      return answerJson(c, HEALTHY, 200);
    })();
  })
  .get("/health/ready", async (c) => {
    const r = await readiness(c.var.deps);
    if (r.ready) return c.json({ status: "ready", version: APP_VERSION, checks: r.checks }, 200);
    return c.json({ detail: errorMessage("NOT_READY"), checks: r.checks }, 503);
  })
  .get("/warmup", async (c) => {
    const start = performance.now();
    await warmDatabase(c.var.deps.db);
    const warmup_time = Math.round((performance.now() - start) * 1000) / 1000;
    return c.json({ warmup_time });
  });
