import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { validate } from "../lib/validate.ts";
import { adminActor } from "./audit-log.ts";
import { addCouncilMember, councilOverview, setCouncilSynthesisers, updateCouncilMember, updateCouncilSettings } from "./council-admin.service.ts";
import { testCouncilMember } from "./council-test-call.ts";
import { councilSettingsSchema, memberAddSchema, memberNameParamSchema, memberPatchSchema, synthesisersSchema } from "./council.schemas.ts";

/**
 * /api/admin/council: the « Modèles » panel (issue 35, docs/API.md). Mounted
 * under adminRoutes, so a session (401) of an administrator (403) is
 * required; every change is audited by the service with the admin as actor
 * and applies to the next question on every server (the council's version).
 */
export const councilRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await councilOverview(c.var.deps)))
  .post("/members", validate("json", memberAddSchema), async (c) => {
    return c.json(await addCouncilMember(c.var.deps, c.req.valid("json"), adminActor(c.var.user)), 201);
  })
  .patch("/members/:name", validate("param", memberNameParamSchema), validate("json", memberPatchSchema), async (c) => {
    return c.json(await updateCouncilMember(c.var.deps, c.req.valid("param").name, c.req.valid("json"), adminActor(c.var.user)));
  })
  .put("/synthesisers", validate("json", synthesisersSchema), async (c) => {
    return c.json({ synthesisers: await setCouncilSynthesisers(c.var.deps, c.req.valid("json").names, adminActor(c.var.user)) });
  })
  .patch("/settings", validate("json", councilSettingsSchema), async (c) => {
    return c.json(await updateCouncilSettings(c.var.deps, c.req.valid("json"), adminActor(c.var.user)));
  })
  // One real call through the member's provider: a provider's refusal is a result (200, ok: false), not an HTTP error.
  .post("/members/:name/test", validate("param", memberNameParamSchema), async (c) => {
    return c.json(await testCouncilMember(c.var.deps, c.req.valid("param").name));
  });
