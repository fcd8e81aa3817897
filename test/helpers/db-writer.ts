/**
 * A second process that keeps writing to a database file, as the server does
 * under load: each transaction adds a user and one conversation of theirs,
 * so a consistent copy has exactly one conversation per user.
 * Usage: bun test/helpers/db-writer.ts <database file>; prints "ready" after
 * its first commit and writes until killed.
 */
import { openDb } from "../../src/db/client.ts";
import { transaction } from "../../src/db/transaction.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { conversations } from "../../src/db/schema/index.ts";
import { insertUser } from "../../src/users/users.queries.ts";

const db = openDb(process.argv[2]!);
await runMigrations(db);
let i = 0;
for (;;) {
  const now = new Date();
  await transaction(db, async (tx) => {
    const u = await insertUser(tx, {
      email: `ecrivain${i}-${process.pid}@example.fr`,
      passwordHash: "x",
      firstName: "Écrivain",
      lastName: String(i),
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(conversations).values({ userId: u.id, title: `Question ${i}`, createdAt: now, updatedAt: now });
  });
  if (i === 0) console.log("ready");
  i++;
  // Yield so the kill signal is handled promptly.
  if (i % 20 === 0) await Bun.sleep(1);
}
