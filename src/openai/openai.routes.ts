import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { bearerToken } from "../auth/require-user.ts";
import { findApiKey } from "../auth/api-keys.ts";
import { shownCouncil } from "../council/council-runtime.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { limitBody, loggedPath } from "../lib/http-middleware.ts";
import type { Logger } from "../lib/log.ts";
import { validate } from "../lib/validate.ts";
import type { V1Env } from "./ask.ts";
import { chatCompletion } from "./chat-completions.ts";
import { v1Cors } from "./cors.ts";
import { createResponse } from "./responses.ts";
import { responsesBody, responsesQuestion } from "./responses-body.ts";
import { toOpenAiError } from "./errors.ts";
import { completionBody, MODEL_ID, toQuestion } from "./messages.ts";
import { v1BodyLimit } from "./api-files.ts";
import { HISTORY_BYTES, v1Body } from "./v1-body.ts";

/** Fixed: clients show it as the model's creation date. */
const MODEL_CREATED = 1_767_225_600;

const model = { id: MODEL_ID, object: "model", created: MODEL_CREATED, owned_by: "unisson" } as const;

/** The one model, with the council that answers for it now (names as the page shows them); OpenAI clients ignore the extra field. */
async function withCouncil(deps: Deps) {
  const council = await shownCouncil(deps);
  return { ...model, council: council.members.map((m) => ({ name: m.name, provider: m.providerLabel, available: deps.ai.availability.isAvailable(m.key) })) };
}

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

/** nginx's "client closed request": what the request log shows for a client gone before its answer. */
const CLIENT_GONE = 499;

/**
 * /v1: the OpenAI chat-completions protocol and the Responses API for text,
 * whose one model is Unisson's consolidated answer. Browsers may call it
 * (cors.ts); only personal API keys open it; errors answer in OpenAI's
 * shape (errors.ts).
 */
export function v1Routes(log: Logger, corsOrigins: "*" | string[], attachments: { perMessage: number; maxBytes: number }) {
  return (
    new Hono<V1Env>()
      // Before the key check: a preflight carries no key.
      .use(v1Cors(corsOrigins))
      // From the header alone: an anonymous request is answered before a byte of its body is read.
      .use(requireApiKey)
      // A thread, plus, with attachments, up to ATTACHMENTS_PER_MESSAGE files in base64 (v1BodyLimit); then its shape (v1-body.ts).
      .use(limitBody(v1BodyLimit(HISTORY_BYTES, attachments)))
      .use(v1Body)
      .get("/models", async (c) => c.json({ object: "list", data: [await withCouncil(c.var.deps)] }))
      .get("/models/:id", async (c) => {
        if (c.req.param("id") !== MODEL_ID) throw new AppError("API_MODEL_UNKNOWN");
        return c.json(await withCouncil(c.var.deps));
      })
      .post("/chat/completions", validate("json", completionBody), async (c) => {
        const body = c.req.valid("json");
        return await chatCompletion(c, body, toQuestion(body));
      })
      .post("/responses", validate("json", responsesBody), async (c) => {
        const body = c.req.valid("json");
        return await createResponse(c, body, responsesQuestion(body));
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
