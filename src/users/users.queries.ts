import { first, one } from "../db/transaction.ts";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type UserRow, users } from "../db/schema/index.ts";

/** E-mails are stored trimmed and lower-cased: one account per address, whatever the case typed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return await first(db.select().from(users).where(eq(users.id, id)));
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return await first(
    db
      .select()
      .from(users)
      .where(eq(users.email, normalizeEmail(email))),
  );
}

export type NewUser = typeof users.$inferInsert;

export async function insertUser(db: Db, values: NewUser): Promise<UserRow> {
  return await one(
    db
      .insert(users)
      .values({ ...values, email: normalizeEmail(values.email) })
      .returning(),
  );
}

export async function updateUser(db: Db, id: number, values: Partial<NewUser>): Promise<UserRow | undefined> {
  return await first(db.update(users).set(values).where(eq(users.id, id)).returning());
}
