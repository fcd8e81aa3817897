import { eq } from "drizzle-orm";
import { users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { randomToken } from "../lib/tokens.ts";
import { findUserByEmail, updateUser } from "./users.queries.ts";
import { createUser } from "./users.service.ts";

/**
 * At start: when ADMIN_EMAIL is set and no admin exists, create that admin
 * (or promote the existing account). Without ADMIN_PASSWORD a password is
 * generated and printed once, on this start only.
 */
export async function ensureAdmin(deps: Deps, print: (line: string) => void = console.log): Promise<void> {
  const { db, config, clock, log } = deps;
  const email = config.admin.email;
  if (!email) return;
  if (db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).get()) return;
  const existing = findUserByEmail(db, email);
  if (existing) {
    updateUser(db, existing.id, { isAdmin: true, updatedAt: clock.now() });
    log.info("admin promoted", { email });
    return;
  }
  const password = config.admin.password ?? randomToken(12);
  await createUser(db, clock.now(), { email, password, firstName: "Admin", lastName: "Unisson", isAdmin: true });
  log.info("admin created", { email });
  if (!config.admin.password) print(`Administrateur créé : ${email} — mot de passe (affiché une seule fois) : ${password}`);
}
