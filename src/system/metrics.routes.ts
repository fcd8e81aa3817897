import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { AppError } from "../lib/errors.ts";

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics, Prometheus text format, for a scraper holding METRICS_TOKEN
 * (`Authorization: Bearer ...`). Without METRICS_TOKEN there is no such endpoint.
 */
export const metricsRoutes = new Hono<AppEnv>().get("/metrics", async (c) => {
  const { config, metrics } = c.var.deps;
  if (!config.metricsToken) throw new AppError("API_NOT_FOUND");
  const auth = c.req.header("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!sameToken(auth, config.metricsToken)) throw new AppError("METRICS_TOKEN_INVALID");
  return c.body(await metrics.registry.metrics(), 200, { "content-type": metrics.registry.contentType, "cache-control": "no-store" });
});
