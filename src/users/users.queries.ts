import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type UserRow, users } from "../db/schema/index.ts";

/** E-mails are stored trimmed and lower-cased: one account per address, whatever the case typed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .get();
}

export type NewUser = typeof users.$inferInsert;

export function insertUser(db: Db, values: NewUser): UserRow {
  return db
    .insert(users)
    .values({ ...values, email: normalizeEmail(values.email) })
    .returning()
    .get();
}

export function updateUser(db: Db, id: number, values: Partial<NewUser>): UserRow | undefined {
  return db.update(users).set(values).where(eq(users.id, id)).returning().get();
}
