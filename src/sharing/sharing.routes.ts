import { Hono } from "hono";
import { requireUser } from "../auth/require-user.ts";
import type { AppEnv } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { validate } from "../lib/validate.ts";
import { sharedNotFoundHtml, sharedPageHtml } from "./shared-page.ts";
import { createShareBody, shareParam } from "./sharing.schemas.ts";
import { createShare, listShares, revokeShare, SHARED_PATH, sharedCopy } from "./sharing.service.ts";

/** /api/shares: the owner's read-only links (create, list, revoke). A web session only. */
export const sharingRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => c.json(await listShares(c.var.deps, c.var.user.id)))
  .post("/", validate("json", createShareBody), async (c) => c.json(await createShare(c.var.deps, c.var.user.id, c.req.valid("json")), 201))
  .delete("/:id", validate("param", shareParam), async (c) => c.json(await revokeShare(c.var.deps, c.var.user.id, c.req.valid("param").id)));

/**
 * Never indexed (header, and a meta on the page), never cached (a revoked
 * link is gone at once). No Referer leaves the page either: its meta says
 * no-referrer (shared-page.ts), since the token is in its address.
 */
const PRIVATE = { "X-Robots-Tag": "noindex, nofollow, noarchive", "Cache-Control": "no-store" };

/** GET /api/shared/{token}: the copy, for anyone holding the link (no session). */
export const sharedCopyRoutes = new Hono<AppEnv>().get("/:token", async (c) => {
  for (const [k, v] of Object.entries(PRIVATE)) c.header(k, v);
  const copy = await sharedCopy(c.var.deps, c.req.param("token"));
  if (!copy) throw new AppError("SHARE_NOT_FOUND");
  return c.json({ ...copy.snapshot, shared_at: copy.sharedAt.toISOString() });
});

/** GET /partage/{token}: the SPA's page, or a 404 page when the link no longer opens anything. Before the SPA's own routes. */
export const sharedPageRoutes = new Hono<AppEnv>().get(`${SHARED_PATH}:token`, async (c) => {
  const copy = await sharedCopy(c.var.deps, c.req.param("token"));
  const headers = { ...PRIVATE, "Content-Type": "text/html; charset=UTF-8" };
  return copy ? c.body(sharedPageHtml, 200, headers) : c.body(sharedNotFoundHtml, 404, headers);
});
