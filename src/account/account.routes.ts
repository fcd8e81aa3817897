import { frAnswers } from "../i18n/fr-answers.ts";
import { Hono } from "hono";
import { requireUser } from "../auth/require-user.ts";
import type { AppEnv } from "../deps.ts";
import { MINUTE } from "../lib/clock.ts";
import { consumeLimit } from "../lib/rate-limit.ts";
import { validate } from "../lib/validate.ts";
import { deleteOwnAccount } from "./self-deletion.ts";
import { exportUserData } from "./data-export.ts";
import { limitedExport } from "../lib/export-limit.ts";
import { deleteAccountSchema } from "./account.schemas.ts";

/** Password tries on a signed-in session: as many as login allows an account. */
const DELETE_LIMIT = { windowMs: 15 * MINUTE, limit: 10 };

/** The user's own data rights, under /api/auth beside the account's other routes. */
export const accountRoutes = new Hono<AppEnv>()
  .get("/export", requireUser, async (c) => {
    const day = c.var.deps.clock.now().toISOString().slice(0, 10);
    const file = await limitedExport(c, "data", async () => ({ body: await exportUserData(c.var.deps, c.var.user) }));
    return c.body(file.body, 200, {
      "Content-Type": "application/json; charset=UTF-8",
      "Content-Disposition": `attachment; filename="unisson-mes-donnees-${day}.json"`,
      "Cache-Control": "no-store",
    });
  })
  .delete("/account", requireUser, validate("json", deleteAccountSchema), async (c) => {
    await consumeLimit(c.var.rateLimits, "account.delete", String(c.var.user.id), DELETE_LIMIT);
    const outcome = await deleteOwnAccount(c.var.deps, c.var.rateLimits, c.var.user, c.req.valid("json"));
    if (outcome === "2FA_REQUIRED") return c.json({ detail: "2FA_REQUIRED" as const, message: frAnswers.codeSent }, 202);
    return c.json({ success: true as const, message: frAnswers.accountDeleted }, 200);
  });
