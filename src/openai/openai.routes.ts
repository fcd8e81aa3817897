import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { bearerToken } from "../auth/require-user.ts";
import { type ApiKeyRow, findApiKey } from "../auth/api-keys.ts";
import { APP_VERSION } from "../contracts/version.ts";
import type { AppEnv } from "../deps.ts";
import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { loggedPath } from "../lib/http-middleware.ts";
import type { Logger } from "../lib/log.ts";
import { consumeLimit } from "../lib/rate-limit.ts";
import { randomToken } from "../lib/tokens.ts";
import { validate } from "../lib/validate.ts";
import { complete, type CompletionResult } from "./completion.service.ts";
import { v1Cors } from "./cors.ts";
import { toOpenAiError } from "./errors.ts";
import { completionBody, MODEL_ID, toQuestion } from "./messages.ts";
import { openStream } from "./stream.ts";

export type V1Env = { Variables: AppEnv["Variables"] & { apiKey: ApiKeyRow } };

/** Per key: a script looping on the endpoint is stopped long before it empties the quota by mistake. */
const API_BURST = { windowMs: MINUTE, limit: 10 };
/** Requests are small: a question and a few context messages. */
const MAX_BODY_BYTES = 256 * 1024;
/** Fixed: clients show it as the model's creation date. */
const MODEL_CREATED = 1_767_225_600;

/** Changes with the server's version, as OpenAI's changes with its backend. */
const SYSTEM_FINGERPRINT = `fp_unisson_${APP_VERSION}`;

const model = { id: MODEL_ID, object: "model", created: MODEL_CREATED, owned_by: "unisson" } as const;

/** A personal API key (never a web session) from `Authorization: Bearer uns_...`; 401 otherwise. */
const requireApiKey = createMiddleware<V1Env>(async (c, next) => {
  const { db, clock } = c.var.deps;
  const secret = bearerToken(c.req.header("authorization"));
  const found = secret ? await findApiKey(db, secret, clock.now()) : undefined;
  if (!found) throw new AppError("API_KEY_INVALID");
  c.set("user", found.user);
  c.set("apiKey", found.key);
  await next();
});

function extra(r: CompletionResult) {
  return { conversation_id: r.conversationId, models: r.models, missing: r.missing, synthesiser: r.synthesiser, ...(r.restarted ? { restarted: true } : {}) };
}

/**
 * /v1: the OpenAI chat-completions protocol, whose one model is Unisson's
 * consolidated answer. Only personal API keys open it; errors answer in
 * OpenAI's shape (errors.ts).
 */
/** nginx's "client closed request": what the request log shows for a client gone before its answer. */
const CLIENT_GONE = 499;

export function v1Routes(log: Logger, corsOrigins: "*" | string[]) {
  return (
    new Hono<V1Env>()
      // Before the key check: a preflight carries no key.
      .use(v1Cors(corsOrigins))
      .use(
        bodyLimit({
          maxSize: MAX_BODY_BYTES,
          onError: () => {
            throw new AppError("PAYLOAD_TOO_LARGE");
          },
        }),
      )
      .use(requireApiKey)
      .get("/models", (c) => c.json({ object: "list", data: [model] }))
      .get("/models/:id", (c) => {
        if (c.req.param("id") !== MODEL_ID) throw new AppError("API_MODEL_UNKNOWN");
        return c.json(model);
      })
      .post("/chat/completions", validate("json", completionBody), async (c) => {
        const body = c.req.valid("json");
        const { question, context } = toQuestion(body);
        // The app's rate-limit store (in the database), keyed by the API key.
        await consumeLimit(c.var.rateLimits, "v1.key", String(c.var.apiKey.id), API_BURST);
        const { deps, user } = c.var;
        const id = `chatcmpl-${randomToken(18)}`;
        const created = Math.floor(deps.clock.now().getTime() / 1000);
        const chunk = (delta: Record<string, string>, finish: "stop" | null) => ({
          id,
          object: "chat.completion.chunk",
          created,
          model: MODEL_ID,
          system_fingerprint: SYSTEM_FINGERPRINT,
          choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        });

        if (!body.stream) {
          const r = await complete(deps, user, { question, context, signal: c.req.raw.signal });
          return c.json({
            id,
            object: "chat.completion",
            created,
            model: MODEL_ID,
            system_fingerprint: SYSTEM_FINGERPRINT,
            choices: [{ index: 0, message: { role: "assistant", content: r.text, refusal: null }, finish_reason: "stop", logprobs: null }],
            usage: r.usage,
            unisson: extra(r),
          });
        }

        const abort = new AbortController();
        let first = true;
        return openStream({
          abort,
          run: async (write) =>
            await complete(deps, user, {
              question,
              context,
              signal: abort.signal,
              onDelta: (text) => {
                write(chunk(first ? { role: "assistant", content: text } : { content: text }, null));
                first = false;
              },
            }),
          finish: (r, write) => {
            write({ ...chunk({}, "stop"), unisson: extra(r) });
            if (body.stream_options?.include_usage) write({ ...chunk({}, null), choices: [], usage: r.usage });
          },
        });
      })
      .all("/*", () => {
        throw new AppError("API_NOT_FOUND");
      })
      .onError((err, c) => {
        // The client went away before its run started (nothing stored, nothing charged): no one to answer, nothing failed.
        if (c.req.raw.signal.aborted && !(err instanceof AppError)) {
          log.info("v1 client gone before its answer", { path: loggedPath(c.req.path) });
          return new Response(null, { status: CLIENT_GONE });
        }
        const e = toOpenAiError(err);
        if (e.status >= 500)
          log.error("v1 request failed", {
            path: loggedPath(c.req.path),
            code: err instanceof AppError ? err.code : "INTERNAL",
            error: err instanceof AppError ? undefined : err,
          });
        for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
        return c.json(e.body, e.status);
      })
  );
}
