import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { errorMessage } from "../lib/errors.ts";
import { readiness } from "./readiness.ts";
import { APP_VERSION } from "../contracts/version.ts";

export { APP_VERSION };

export const systemRoutes = new Hono<AppEnv>()
  .get("/health", (c) => {
    // A cheap real read: a healthy process with a broken database is not healthy.
    c.var.deps.db.$client.query("SELECT 1").get();
    return c.json({ status: "ok", version: APP_VERSION });
  })
  .get("/health/ready", (c) => {
    const r = readiness(c.var.deps);
    if (r.ready) return c.json({ status: "ready", version: APP_VERSION, checks: r.checks }, 200);
    return c.json({ detail: errorMessage("NOT_READY"), checks: r.checks }, 503);
  })
  .get("/warmup", (c) => {
    const start = performance.now();
    const { db } = c.var.deps;
    // Touch the pages and statements a first real request needs.
    db.$client.query("SELECT count(*) FROM users").get();
    db.$client.query("SELECT id FROM sessions ORDER BY id DESC LIMIT 1").get();
    const warmup_time = Math.round((performance.now() - start) * 1000) / 1000;
    return c.json({ warmup_time });
  });
