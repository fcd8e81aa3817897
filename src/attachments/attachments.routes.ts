import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../auth/require-user.ts";
import type { AppEnv } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { limitBody } from "../lib/http-middleware.ts";
import { validate } from "../lib/validate.ts";
import { findOwnedAttachment } from "./attachments.queries.ts";
import { tooLarge, uploadAttachment } from "./attachments.service.ts";
import { ACCEPTED_MIME } from "./detect.ts";
import { pictureMime } from "./picture-mime.ts";
import { storageOf } from "./storage-quota.ts";
import { inTurn, nextTurnOfTheLoop } from "./upload-gate.ts";
import { countUploads } from "./upload-limit.ts";

/** Room in a multipart body for its boundaries and headers, beyond the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const idParam = z.object({
  id: z.coerce
    .number({ error: "Identifiant de pièce jointe invalide." })
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER, "Identifiant de pièce jointe invalide."),
});
const downloadQuery = z.object({ download: z.enum(["0", "1"]).optional() });

/** `filename*` in UTF-8 (RFC 6266), with a plain ASCII fallback. */
function disposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * /api/attachment-limits: the limits the page shows. Not under
 * /api/attachments: a fixed path beside /api/attachments/:id makes Hono fall
 * back from RegExpRouter to TrieRouter for the whole app, ~1 µs more on every
 * request (test/server/system/router.test.ts, docs/BENCHMARKS.md, "Fourth round").
 */
export const attachmentLimitRoutes = new Hono<AppEnv>().get("/", (c) => {
  const { maxMb, perMessage } = c.var.deps.config.attachments;
  return c.json({ attachments: { max_mb: maxMb, per_message: perMessage, accept: ACCEPTED_MIME } });
});

/** /api/attachment-storage: the user's files against their plan's quota (the account dialog shows it). Beside /api/attachments for the same router reason. */
export const attachmentStorageRoutes = new Hono<AppEnv>().get("/", requireUser, async (c) => c.json(await storageOf(c.var.deps, c.var.user)));

/**
 * /api/attachments (docs/API.md, "Attachments"): the upload, the file back to
 * its owner, a thumbnail. The upload's body limit is ATTACHMENT_MAX_MB (app.ts
 * leaves this path out of the 256 KB one).
 */
export const attachmentRoutes = new Hono<AppEnv>()
  .post(
    "/",
    requireUser,
    async (c, next) => {
      try {
        return await limitBody(c.var.deps.config.attachments.maxBytes + FORM_OVERHEAD_BYTES)(c, next);
      } catch (e) {
        if (e instanceof AppError && e.code === "PAYLOAD_TOO_LARGE") throw tooLarge(c.var.deps);
        throw e;
      }
    },
    async (c) => {
      const stored = await inTurn(c.var.user.id, async () => {
        // Counted in turn, not on arrival: each count is a commit, and sixty uploads arriving together made sixty
        // commits in one turn of the loop (~0.15 s of /api/health's wait, docs/BENCHMARKS.md, "Hostile files").
        await countUploads(c.var.rateLimits, c.var.user.id);
        await nextTurnOfTheLoop();
        if (!/^multipart\/form-data/i.test(c.req.header("content-type") ?? "")) throw new AppError("ATTACHMENT_MISSING");
        // Bun's parser throws on a missing boundary or a body cut short: the client's fault, never a 500.
        const form = await c.req.formData().catch(() => {
          throw new AppError("ATTACHMENT_FORM_INVALID");
        });
        const file = form.get("file");
        if (!(file instanceof File)) throw new AppError("ATTACHMENT_MISSING");
        // A part sent with `filename=""` comes out of Bun's parser as a File whose name is undefined.
        if (typeof file.name !== "string" || file.name === "") throw new AppError("ATTACHMENT_UNNAMED");
        return await uploadAttachment(c.var.deps, c.var.user, file);
      });
      return c.json(stored, 201);
    },
  )
  .get("/:id", requireUser, validate("param", idParam), validate("query", downloadQuery), async (c) => {
    const row = await findOwnedAttachment(c.var.deps.db, c.req.valid("param").id, c.var.user.id);
    if (!row) throw new AppError("ATTACHMENT_NOT_FOUND");
    const type = row.mime.startsWith("text/") ? `${row.mime}; charset=utf-8` : row.mime;
    return c.body(new Uint8Array(row.data), 200, {
      "Content-Type": type,
      "Content-Disposition": disposition(c.req.valid("query").download === "1" ? "attachment" : "inline", row.name),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    });
  })
  .get("/:id/thumbnail", requireUser, validate("param", idParam), async (c) => {
    const row = await findOwnedAttachment(c.var.deps.db, c.req.valid("param").id, c.var.user.id);
    if (!row?.thumbnail) throw new AppError("ATTACHMENT_NOT_FOUND");
    return c.body(new Uint8Array(row.thumbnail), 200, {
      "Content-Type": pictureMime(row.thumbnail),
      // Never cached: the URL is the same for every user, so a shared browser would serve A's thumbnail to B after A signs out.
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    });
  });
