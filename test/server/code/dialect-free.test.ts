import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..", "..", "..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return [path].flatMap(files);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Everything above the data layer: src/ but src/db/, and cli/ (docs/ARCHITECTURE.md, "Data layer"). */
const aboveDb = () => [...files(join(root, "src")), ...files(join(root, "cli"))].map((f) => relative(root, f)).filter((f) => !f.startsWith("src/db/"));

function offences(text: string, rules: Array<[string, RegExp]>): string[] {
  return rules.flatMap(([what, re]) => [...text.matchAll(re)].map((m) => `${what} (ligne ${text.slice(0, m.index).split("\n").length})`));
}

/** Rule 1: a query runs with `await q` (rows) or `.returning()` (written rows); never SQLite's synchronous executors. */
const SYNC_EXECUTORS: Array<[string, RegExp]> = [
  [".all()/.get()/.run()", /\.\s*(all|get|run)\(\s*\)/g],
  // A builder chain ends with ")": `map.values()` is not one.
  [".values()", /\)\s*\.\s*values\(\s*\)/g],
];

/** Rule 2: no SQLite connection and no SQLite-only statement outside src/db. */
const RAW_SQLITE: Array<[string, RegExp]> = [
  ["$client", /\$client/g],
  ["bun:sqlite", /from "bun:sqlite"/g],
  // A string that is a statement, not a comment or a help text that names one.
  ["PRAGMA / sqlite_master / VACUUM / BEGIN", /["'`]\s*(PRAGMA|VACUUM|BEGIN|SELECT[^"'`]*sqlite_master)\b/g],
];

/** A drizzle write is lazy: a statement that starts with one and is not awaited never runs. */
const LAZY_WRITES: Array<[string, RegExp]> = [["write not awaited", /(?<=(?:^|[;{}])\s*)(?:deps\.)?(?:db|tx)\s*\.\s*(?:insert|update|delete)\(/g]];

describe("the data layer is dialect-free above src/db", () => {
  test("no synchronous executor on a query builder in src/ and cli/", () => {
    const bad = aboveDb().flatMap((f) => offences(readFileSync(join(root, f), "utf8"), SYNC_EXECUTORS).map((o) => `${f}: ${o}`));
    expect(bad).toEqual([]);
  });

  test("no raw SQLite (connection, PRAGMA, sqlite_master, VACUUM, BEGIN IMMEDIATE) outside src/db", () => {
    const bad = aboveDb().flatMap((f) => offences(readFileSync(join(root, f), "utf8"), RAW_SQLITE).map((o) => `${f}: ${o}`));
    expect(bad).toEqual([]);
  });

  test("no drizzle write left without await (it would never run)", () => {
    const bad = aboveDb().flatMap((f) => offences(readFileSync(join(root, f), "utf8"), LAZY_WRITES).map((o) => `${f}: ${o}`));
    expect(bad).toEqual([]);
  });

  test("the rules catch what they are for", () => {
    expect(offences("const r = db.select().from(users).all();", SYNC_EXECUTORS)).toHaveLength(1);
    expect(offences("db.update(users).set(v).where(w)\n  .run();", SYNC_EXECUTORS)).toHaveLength(1);
    expect(offences("const rows = await db.select().from(users);\nmap.get(key);", SYNC_EXECUTORS)).toEqual([]);
    expect(offences('deps.db.$client.query("PRAGMA page_count")', RAW_SQLITE)).toHaveLength(2);
    expect(offences("// VACUUM INTO copies the file (src/db/sqlite/backup.ts)", RAW_SQLITE)).toEqual([]);
    expect(
      offences(
        "{\n  db.update(users).set(v);\n  await tx.delete(users);\n  return db.insert(users);\n  x = first(\n    db\n      .update(users));\n}",
        LAZY_WRITES,
      ),
    ).toHaveLength(1);
  });
});
