import { frAnswers } from "../i18n/fr-answers.ts";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { answerJson } from "../lib/answer-headers.ts";
import { clientIp } from "../lib/client-ip.ts";
import { ipRateLimit } from "../lib/ip-rate-limit.ts";
import { consumeLimit } from "../lib/rate-limit.ts";
import { AUTH_LIMITS } from "./limits.ts";
import { validate } from "../lib/validate.ts";
import { toPublicUser } from "../users/users.view.ts";
import { readDeviceCookie, setDeviceCookie } from "./remembered-devices.ts";
import { warmCommonPasswords } from "./passwords.ts";
import { checkResetToken, requestPasswordReset, resetPassword } from "./password-reset.ts";
import { credentialsSchema, forgotSchema, twoFactorRequestSchema, registerSchema, resetSchema, resetTokenParam, verifySchema } from "./auth.schemas.ts";
import { login, type RequestMeta, register } from "./auth.service.ts";
import { requestTwoFactorCode, verifyTwoFactorCode } from "./two-factor.ts";
import { requireUser, signedIn } from "./require-user.ts";
import { findSessionShown, revokeSession } from "./sessions.ts";

export { AUTH_LIMITS };

const ipLimit = (name: keyof typeof AUTH_LIMITS) => ipRateLimit({ name: `auth.${name}`, ...AUTH_LIMITS[name].ip });
const accountLimit = async (c: Context<AppEnv>, name: "register" | "twoFactorVerify" | "forgotPassword", email: string) =>
  await consumeLimit(c.var.rateLimits, `auth.${name}`, email, AUTH_LIMITS[name].account);

function meta(c: Context<AppEnv>): RequestMeta {
  return { ip: clientIp(c), userAgent: c.req.header("user-agent") ?? null };
}

export const authRoutes = new Hono<AppEnv>()
  .post("/register", ipLimit("register"), validate("json", registerSchema), async (c) => {
    const input = c.req.valid("json");
    await accountLimit(c, "register", input.email);
    return c.json(await register(c.var.deps, input, meta(c)), 200);
  })
  .post("/login", ipLimit("login"), validate("json", credentialsSchema), async (c) => {
    const input = c.req.valid("json");
    const out = await login(c.var.deps, c.var.rateLimits, input, readDeviceCookie(c), meta(c));
    if ("pendingLogin" in out) return c.json({ detail: "2FA_REQUIRED" as const, pending_login: out.pendingLogin }, 202);
    return c.json(out, 200);
  })
  .post("/2fa/request", ipLimit("twoFactorRequest"), validate("json", twoFactorRequestSchema), async (c) => {
    await requestTwoFactorCode(c.var.deps, c.var.rateLimits, c.req.valid("json"));
    return c.json({ success: true, message: frAnswers.codeSent }, 200);
  })
  .post("/2fa/verify", ipLimit("twoFactorVerify"), validate("json", verifySchema), async (c) => {
    const input = c.req.valid("json");
    // Per pending login: a stranger's tries without the id never use up the owner's.
    await accountLimit(c, "twoFactorVerify", `${input.email}:${input.pending_login ?? "-"}`);
    const { deviceToken, ...signedIn } = await verifyTwoFactorCode(c.var.deps, c.var.rateLimits, input, meta(c));
    if (deviceToken) setDeviceCookie(c, deviceToken, c.var.deps.config);
    return c.json(signedIn, 200);
  })
  // The session read by the handler itself, with only the columns shown: every signed-in page load asks, one step instead of requireUser's two.
  // Every page load asks it: its answer is made with the pipeline's headers in place (answer-headers.ts).
  .get("/me", async (c) => answerJson(c, toPublicUser(await signedIn(c, findSessionShown), c.get("deps").clock.now()), 200))
  .post("/logout", requireUser, async (c) => {
    await revokeSession(c.var.deps.db, c.var.sessionId, c.var.deps.clock.now());
    return c.json({ success: true, message: frAnswers.loggedOut }, 200);
  })
  .post("/forgot-password", ipLimit("forgotPassword"), validate("json", forgotSchema), async (c) => {
    const { email } = c.req.valid("json");
    await accountLimit(c, "forgotPassword", email);
    await requestPasswordReset(c.var.deps, email);
    return c.json({ success: true, message: frAnswers.resetMailSent }, 200);
  })
  .get("/validate-reset-token/:token", validate("param", resetTokenParam), async (c) => {
    // The reset form opens now: its new password will be checked against the common list.
    warmCommonPasswords();
    return c.json(await checkResetToken(c.var.deps, c.req.valid("param").token), 200);
  })
  .post("/reset-password", validate("json", resetSchema), async (c) => {
    const input = c.req.valid("json");
    await resetPassword(c.var.deps, input.token, input.new_password);
    return c.json({ success: true, message: frAnswers.passwordChanged }, 200);
  });
