import { first } from "../db/transaction.ts";
import { frOps } from "../i18n/fr-ops.ts";
import { eq } from "drizzle-orm";
import { users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { randomToken } from "../lib/tokens.ts";
import { findUserByEmail } from "./users.queries.ts";
import { createUser } from "./users.service.ts";

/**
 * At start: when ADMIN_EMAIL is set and no admin exists, create that admin.
 * An account that already has the address is never promoted: anyone could
 * have registered it before the operator set the variable (docs/SECURITY.md,
 * "Admin bootstrap"), so the operator is told to check it and use the CLI.
 * Without ADMIN_PASSWORD a password is generated and written once, through
 * the logger, on this start only.
 */
export async function ensureAdmin(deps: Pick<Deps, "db" | "config" | "clock" | "log">): Promise<void> {
  const { db, config, clock, log } = deps;
  const email = config.admin.email;
  if (!email) return;
  if (await first(db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)))) return;
  if (await findUserByEmail(db, email)) {
    log.warn(frOps.bootstrap.notPromoted(email));
    return;
  }
  const password = config.admin.password ?? randomToken(12);
  await createUser(db, config.passwordHash, clock.now(), { email, password, firstName: "Admin", lastName: "Unisson", isAdmin: true });
  if (config.admin.password) log.info("admin created", { email });
  else log.info(frOps.bootstrap.created(email, password));
}
