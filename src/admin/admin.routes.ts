import { Hono } from "hono";
import { requireAdmin, requireUser } from "../auth/auth.middleware.ts";
import type { AppEnv } from "../deps.ts";
import { aiCosts } from "../ai/ai.costs.ts";
import { validate } from "../lib/validate.ts";
import { toPublicUser } from "../users/users.view.ts";
import { adminUserUpdateSchema, listUsersQuerySchema, userIdParamSchema } from "./admin.schemas.ts";
import { deleteUserByAdmin, getStats, listUsers, updateUserByAdmin } from "./admin.service.ts";

/** /api/admin: a session (401) of an administrator (403) for every route. */
export const adminRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/stats", (c) => c.json(getStats(c.var.deps)))
  // Apart from /stats, whose five fields are the spec's.
  .get("/ai-costs", (c) => c.json(aiCosts(c.var.deps.db, c.var.deps.clock.now())))
  .get("/users", validate("query", listUsersQuerySchema), (c) => {
    const q = c.req.valid("query");
    return c.json(listUsers(c.var.deps, { page: q.page, perPage: q.per_page, q: q.q, plan: q.plan }));
  })
  .put("/users/:id", validate("param", userIdParamSchema), validate("json", adminUserUpdateSchema), (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const user = updateUserByAdmin(c.var.deps, id, {
      firstName: body.first_name,
      lastName: body.last_name,
      email: body.email,
      plan: body.subscription_type,
      remainingQueries: body.remaining_queries,
      trialDaysRemaining: body.trial_days_remaining,
    });
    // The user object itself, like GET /auth/me: the panel replaces its row with it.
    return c.json(toPublicUser(user, c.var.deps.clock.now()));
  })
  .delete("/users/:id", validate("param", userIdParamSchema), (c) => {
    const { id } = c.req.valid("param");
    deleteUserByAdmin(c.var.deps, id, c.var.user.id);
    return c.json({ success: true, message: "Utilisateur supprimé avec succès" });
  });
