import { frAnswers } from "../i18n/fr-answers.ts";
import { type Context, Hono } from "hono";
import { requireAdmin, requireUser } from "../auth/require-user.ts";
import type { AppEnv } from "../deps.ts";
import { aiCosts } from "../ai/costs.ts";
import { validate } from "../lib/validate.ts";
import { toPublicUser } from "../users/users.view.ts";
import { adminUserUpdateSchema, listUsersQuerySchema, usageQuerySchema, userIdParamSchema } from "./admin.schemas.ts";
import { USAGE_DEFAULT_DAYS, usageReport } from "./usage-report.ts";
import { type AuditAction, adminActor, type Changes, recordAudit, userChanges } from "./audit-log.ts";
import { billingHistory } from "../billing/entitlements.ts";
import { deleteUserByAdmin, getStats, getUserOrFail, listUsers, stopSubscriptionOf, updateUserByAdmin } from "./admin.service.ts";
import { toUserDetail } from "./admin.view.ts";
import { councilRoutes } from "./council.routes.ts";

/** Every change made through the admin API lands in the audit log, with the admin who made it. */
async function audit(c: Context<AppEnv>, action: AuditAction, targetEmail: string, changes?: Changes) {
  await recordAudit(c.var.deps.db, { at: c.var.deps.clock.now(), actor: adminActor(c.var.user), action, targetEmail, changes });
}

/** /api/admin: a session (401) of an administrator (403) for every route. */
export const adminRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/stats", async (c) => c.json(await getStats(c.var.deps)))
  .route("/council", councilRoutes)
  .get("/usage", validate("query", usageQuerySchema), async (c) => {
    const { db, clock } = c.var.deps;
    return c.json(await usageReport(db, clock.now(), c.req.valid("query").days ?? USAGE_DEFAULT_DAYS));
  })
  // Apart from /stats, whose five fields are the spec's.
  .get("/ai-costs", async (c) => c.json(await aiCosts(c.var.deps.db, c.var.deps.clock.now())))
  .get("/users", validate("query", listUsersQuerySchema), async (c) => {
    const q = c.req.valid("query");
    return c.json(await listUsers(c.var.deps, { page: q.page, perPage: q.per_page, q: q.q, plan: q.plan }));
  })
  // One account as the operator sees it, with its billing record (refunds, disputes, plan changes and who made them).
  .get("/users/:id", validate("param", userIdParamSchema), async (c) => {
    const { deps } = c.var;
    const user = await getUserOrFail(deps, c.req.valid("param").id);
    return c.json(toUserDetail(user, deps.clock.now(), await billingHistory(deps.db, user.id)));
  })
  .put("/users/:id", validate("param", userIdParamSchema), validate("json", adminUserUpdateSchema), async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const before = await getUserOrFail(c.var.deps, id);
    const actor = `admin:${c.var.user.id}`;
    // Ending a Stripe subscriber's plan goes through Stripe first (cancelled now); the rest of the form follows.
    if (body.subscription_type === "expired") await stopSubscriptionOf(c.var.deps, id, actor);
    const user = await updateUserByAdmin(
      c.var.deps,
      id,
      {
        firstName: body.first_name,
        lastName: body.last_name,
        email: body.email,
        plan: body.subscription_type,
        remainingQueries: body.remaining_queries,
        trialDaysRemaining: body.trial_days_remaining,
      },
      actor,
      c.var.sessionId,
    );
    await audit(c, "user.update", user.email, userChanges(before, user));
    // The user object itself, like GET /auth/me: the panel replaces its row with it.
    return c.json(toPublicUser(user, c.var.deps.clock.now()));
  })
  .delete("/users/:id", validate("param", userIdParamSchema), async (c) => {
    const { id } = c.req.valid("param");
    const target = await getUserOrFail(c.var.deps, id);
    await deleteUserByAdmin(c.var.deps, id, c.var.user.id);
    await audit(c, "user.delete", target.email);
    return c.json({ success: true, message: frAnswers.userDeleted });
  });
