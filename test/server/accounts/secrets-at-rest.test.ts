import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { backupDatabase } from "../../../src/admin/backup.ts";
import { openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";
import { cleanupExpired } from "../../../src/jobs/cleanup.job.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { extractCode, extractResetLink, resetTokenOf, type SmtpFake, startSmtpFake } from "../../fakes/smtp.ts";
import { createTestApp } from "../../helpers/app.ts";
import { useDataDirs } from "../../helpers/cli.ts";
import { onPostgres, SQLITE_ONLY } from "../../helpers/test-database.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { lastCode, lastResetToken, mails } from "../auth/auth.helpers.ts";

const dataDir = useDataDirs();
let smtp: SmtpFake | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

const mode = (file: string) => statSync(file).mode & 0o777;

describe("secrets at rest", () => {
  test("with SMTP, no sent code or reset link is readable in the database, a backup or the log", async () => {
    smtp = await startSmtpFake();
    const t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    const { user } = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    await t.call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    await t.call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    const code = extractCode(await smtp.waitForMessage((m) => m.subject.includes("code")));
    const token = resetTokenOf(extractResetLink(await smtp.waitForMessage((m) => m.subject.includes("Réinitialisation"))));
    const rows = JSON.stringify(await mails(t.db, user.email));
    expect(rows).toContain("[masqué]");
    const places: Record<string, string> = { database: rows, log: t.log.lines.join("\n") };
    // A backup file is SQLite's (VACUUM INTO); PostgreSQL is backed up with pg_dump, of the same rows checked above.
    if (!onPostgres) {
      const backup = join(await dataDir(), "copy.db");
      await backupDatabase(t.db, backup);
      places.backup = readFileSync(backup).toString("latin1");
    }
    for (const [place, text] of Object.entries(places)) {
      expect({ place, code: text.includes(code) }).toEqual({ place, code: false });
      expect({ place, token: text.includes(token) }).toEqual({ place, token: false });
    }
    // The mails themselves still carried them.
    expect((await t.call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code } })).status).toBe(200);
  });

  test("without SMTP, the log says where to read the mail but never holds its code", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    await t.call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    const code = await lastCode(t.db, user.email);
    expect(t.log.lines.some((l) => l.includes("unisson mail list"))).toBe(true);
    expect(t.log.lines.filter((l) => l.includes(code))).toEqual([]);
  });

  test("mails older than 7 days are purged from the outbox", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    await t.call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    await Bun.sleep(10);
    t.clock.advance(7 * DAY + 1);
    await cleanupExpired(t.deps);
    expect(await mails(t.db)).toHaveLength(0);
  });

  test("a new reset link ends the older ones", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    await t.call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    await Bun.sleep(10);
    const first = await lastResetToken(t.db, user.email);
    await t.call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    await Bun.sleep(10);
    const second = await lastResetToken(t.db, user.email);
    expect((await t.call("GET", `/api/auth/validate-reset-token/${first}`)).body.valid).toBe(false);
    expect((await t.call("GET", `/api/auth/validate-reset-token/${second}`)).body.valid).toBe(true);
  });

  // Files of SQLite's; PostgreSQL's are the cluster's, kept by its server.
  test.skipIf(SQLITE_ONLY)("the database file, its WAL and a backup are readable by their owner only (0600)", async () => {
    const previous = process.umask(0o022);
    try {
      const dir = await dataDir();
      const file = join(dir, "unisson.db");
      const db = openDb(file);
      await runMigrations(db);
      await makeUser(db, new Date());
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
      expect(mode(`${file}-shm`)).toBe(0o600);
      const backup = join(dir, "backup.db");
      await backupDatabase(db, backup);
      expect(mode(backup)).toBe(0o600);
      db.$client.close();
    } finally {
      process.umask(previous);
    }
  });
});
