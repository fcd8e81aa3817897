import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";

const dirs: string[] = [];
function tempDbPath() {
  const d = mkdtempSync(join(tmpdir(), "unisson-db-"));
  dirs.push(d);
  return join(d, "sub", "unisson.db");
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const pragma = (db: ReturnType<typeof openDb>, name: string) => Object.values(db.$client.query(`PRAGMA ${name}`).get() as object)[0];

describe("database", () => {
  test("a file database opens with WAL, synchronous FULL, busy_timeout 5000 and foreign keys", () => {
    const db = openDb(tempDbPath());
    expect(pragma(db, "journal_mode")).toBe("wal");
    expect(pragma(db, "synchronous")).toBe(2);
    expect(pragma(db, "busy_timeout")).toBe(5000);
    expect(pragma(db, "foreign_keys")).toBe(1);
    db.$client.close();
  });

  test("migrations create every table once and a second run applies nothing", async () => {
    const db = openDb(tempDbPath());
    expect(await runMigrations(db)).toBeGreaterThan(0);
    expect(await runMigrations(db)).toBe(0);
    const tables = (db.$client.query("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[]).map((r) => r.name);
    for (const t of [
      "users",
      "sessions",
      "remembered_devices",
      "two_factor_codes",
      "password_reset_tokens",
      "auth_failures",
      "conversations",
      "messages",
      "processing_runs",
      "ai_calls",
      "fulfilments",
      "purchases",
      "stripe_events",
      "pending_plan_changes",
      "referrals",
      "promo_codes",
      "checkout_sessions",
      "contact_messages",
      "mail_outbox",
    ]) {
      expect(tables).toContain(t);
    }
    db.$client.close();
  });

  test("foreign keys are enforced", async () => {
    const db = openDb(":memory:");
    await runMigrations(db);
    expect(() => db.$client.run("INSERT INTO sessions (user_id, token_hash, created_at, expires_at, last_seen_at) VALUES (999, 'x', 0, 0, 0)")).toThrow(
      /FOREIGN KEY/,
    );
  });

  test("two connections write to one file without SQLITE_BUSY", async () => {
    const path = tempDbPath();
    const a = openDb(path);
    await runMigrations(a);
    const b = openDb(path);
    const write = (db: ReturnType<typeof openDb>, i: number) =>
      db.$client.run("INSERT INTO stripe_events (id, type, received_at) VALUES (?, 'x', 0)", [`evt_${i}`]);
    for (let i = 0; i < 200; i++) write(i % 2 ? a : b, i);
    const n = a.$client.query("SELECT count(*) AS n FROM stripe_events").get() as { n: number };
    expect(n.n).toBe(200);
    a.$client.close();
    b.$client.close();
  });
});
