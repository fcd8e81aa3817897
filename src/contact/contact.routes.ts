import { frAnswers } from "../i18n/fr-answers.ts";
import { Hono } from "hono";
import { bearerToken } from "../auth/require-user.ts";
import { findSession } from "../auth/sessions.ts";
import type { AppEnv } from "../deps.ts";
import { clientIp } from "../lib/client-ip.ts";
import { ipRateLimit } from "../lib/ip-rate-limit.ts";
import { validate } from "../lib/validate.ts";
import { contactSchema } from "./contact.schemas.ts";
import { submitContact } from "./contact.service.ts";

/** Enough for a visitor who retries; too few to use the form as a mail cannon. */
const CONTACT_RATE = { name: "contact", limit: 5, windowMs: 10 * 60_000 } as const;

/** POST /api/contact: no session needed; a valid bearer links the message to its account. */
export const contactRoutes = new Hono<AppEnv>().post("/", ipRateLimit(CONTACT_RATE), validate("json", contactSchema), async (c) => {
  const { db, clock } = c.var.deps;
  const token = bearerToken(c.req.header("authorization"));
  const session = token ? await findSession(db, token, clock.now()) : undefined;
  await submitContact(c.var.deps, c.req.valid("json"), { userId: session?.user.id ?? null, ip: clientIp(c) });
  return c.json({ success: true, message: frAnswers.contactSent });
});
