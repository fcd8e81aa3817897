import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps.ts";
import { requiredText, validate } from "../lib/validate.ts";
import { createApiKey, listApiKeys, revokeApiKey, toPublicApiKey } from "./api-keys.ts";
import { requireUser } from "./require-user.ts";

const createBody = z.object({ name: requiredText("Donnez un nom à la clé (par exemple « Open WebUI »).", 60) });
const idParam = z.object({ id: z.coerce.number({ error: "Identifiant de clé invalide." }).int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * /api/auth/api-keys: a signed-in user's personal keys for /v1. Only a web
 * session reaches these routes; a key itself opens nothing here (requireUser
 * reads sessions only).
 */
export const apiKeyRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => c.json({ keys: (await listApiKeys(c.var.deps.db, c.var.user.id)).map(toPublicApiKey) }))
  .post("/", validate("json", createBody), async (c) => {
    const { key, secret } = await createApiKey(c.var.deps.db, c.var.user.id, c.req.valid("json").name, c.var.deps.clock.now());
    return c.json({ ...key, secret }, 201);
  })
  .delete("/:id", validate("param", idParam), async (c) => {
    await revokeApiKey(c.var.deps.db, c.var.user.id, c.req.valid("param").id, c.var.deps.clock.now());
    return c.json({ success: true });
  });
