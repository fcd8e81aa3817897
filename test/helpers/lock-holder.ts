/**
 * Another process holding the database's write lock, as a long `sqlite3`
 * session or a stuck script would: BEGIN IMMEDIATE, print "locked", hold
 * for the given milliseconds, then roll back.
 * Usage: bun test/helpers/lock-holder.ts <database file> <ms>
 */
import { Database } from "bun:sqlite";

const db = new Database(process.argv[2]!);
db.run("BEGIN IMMEDIATE");
console.log("locked");
await Bun.sleep(Number(process.argv[3] ?? 8000));
db.run("ROLLBACK");
db.close();
