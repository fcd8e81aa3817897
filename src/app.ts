import { type ErrorHandler, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isBusyError, markBusy } from "./db/busy.ts";
import type { AppEnv, Deps } from "./deps.ts";
import { AppError, errorMessage } from "./lib/errors.ts";
import type { Logger } from "./lib/log.ts";
import { loggedPath } from "./lib/http-middleware.ts";
import { requestPipeline } from "./lib/request-pipeline.ts";
import { createRateLimitStore } from "./lib/rate-limit.ts";
import { streamSlots } from "./chat/stream-slots.ts";
import { exportSlots } from "./lib/export-limit.ts";
import { apiKeyRoutes } from "./auth/api-keys.routes.ts";
import { accountRoutes } from "./account/account.routes.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { adminRoutes } from "./admin/admin.routes.ts";
import { contactRoutes } from "./contact/contact.routes.ts";
import { pricingRoutes, promoRoutes, stripeRoutes, subscriptionRoutes } from "./billing/billing.routes.ts";
import { chatRoutes } from "./chat/chat.routes.ts";
import { attachmentLimitRoutes, attachmentRoutes, attachmentStorageRoutes } from "./attachments/attachments.routes.ts";
import { v1Routes } from "./openai/openai.routes.ts";
import { spaRoutes } from "./spa/spa.routes.ts";
import { sharedCopyRoutes, sharedPageRoutes, sharingRoutes } from "./sharing/sharing.routes.ts";
import { bindMetrics, type Metrics } from "./system/metrics.ts";
import { metricsRoutes } from "./system/metrics.routes.ts";
import { systemRoutes } from "./system/system.routes.ts";

/** Largest JSON body the API reads; larger ones get 413 before any parsing. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The API under /api, one chained router per domain (the chain's type is
 * AppType, which the SPA's hc<AppType> client reads), then the SPA.
 */
function apiRoutes() {
  return new Hono<AppEnv>()
    .route("/", systemRoutes)
    .route("/auth/api-keys", apiKeyRoutes)
    .route("/auth", authRoutes)
    .route("/auth", accountRoutes)
    .route("/admin", adminRoutes)
    .route("/contact", contactRoutes)
    .route("/pricing", pricingRoutes)
    .route("/stripe", stripeRoutes)
    .route("/subscription", subscriptionRoutes)
    .route("/promo", promoRoutes)
    .route("/unisson", chatRoutes)
    .route("/attachments", attachmentRoutes)
    .route("/attachment-limits", attachmentLimitRoutes)
    .route("/attachment-storage", attachmentStorageRoutes)
    .route("/shares", sharingRoutes)
    .route("/shared", sharedCopyRoutes);
}

export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>();
  const rateLimits = createRateLimitStore(deps.db, deps.clock);
  const slots = { streams: streamSlots(deps.config), exports: exportSlots() };
  bindMetrics(deps.metrics, deps.ai.live, deps.db);

  const onError = errorHandler(deps.log, deps.metrics);
  // Request id, log line, metrics, security headers, the app's variables, and /api's guards and compression: src/lib/request-pipeline.ts.
  app.use(requestPipeline(deps, { deps, rateLimits, slots }, { maxBodyBytes: MAX_BODY_BYTES, onError }));

  const routes = app.route("/api", apiRoutes());
  // The OpenAI-compatible API: personal keys only, OpenAI's error shape (src/openai).
  app.route("/v1", v1Routes(deps.log, deps.config.apiCorsOrigins, deps.config.attachments));

  app.all("/api/*", () => {
    throw new AppError("API_NOT_FOUND");
  });
  app.route("/", metricsRoutes);
  // Before the SPA's catch-all: a shared page answers 404 itself when its link opens nothing (src/sharing).
  app.route("/", sharedPageRoutes);
  app.route("/", spaRoutes());

  app.onError(onError);

  return routes;
}

/** The one error handler: AppError -> its status and { detail, ...extra }; anything else -> 500, logged, no internals. */
export function errorHandler(log: Logger, metrics?: Metrics): ErrorHandler<AppEnv> {
  return (err, c) => {
    if (isBusyError(err)) {
      // Another process (the CLI, a backup, sqlite3) holds the write lock past the server's short busy timeout.
      metrics?.sqliteBusy.inc();
      const db = c.var.deps?.db;
      if (db) markBusy(db);
      log.warn("database busy", { path: loggedPath(c.req.path), method: c.req.method });
      return c.json({ detail: errorMessage("DATABASE_BUSY") }, 503);
    }
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      if (err.status >= 500) log.error("request failed", { path: loggedPath(c.req.path), code: err.code });
      return c.json({ detail: err.message, ...err.extra }, err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      return c.json({ detail: httpExceptionDetail(status, err.message) }, status);
    }
    log.error("unhandled error", { path: loggedPath(c.req.path), method: c.req.method, error: err, stack: err?.stack });
    return c.json({ detail: errorMessage("INTERNAL") }, 500);
  };
}

/** Hono's own exceptions (malformed JSON, body limit) in the house's French. */
function httpExceptionDetail(status: number, message: string): string {
  if (status === 400 && /json/i.test(message)) return errorMessage("INVALID_JSON");
  if (status === 401) return errorMessage("UNAUTHENTICATED");
  if (status === 413) return errorMessage("PAYLOAD_TOO_LARGE");
  return status < 500 ? errorMessage("VALIDATION") : errorMessage("INTERNAL");
}

export type AppType = ReturnType<typeof createApp>;
