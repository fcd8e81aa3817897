import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import { backupJobs, takeAutomaticBackup } from "../../../src/system/backup.job.ts";
import { trimAiCalls } from "../../../src/jobs/retention.job.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { tempDir } from "../../helpers/binary.ts";
import { makeUser } from "../../helpers/fixtures.ts";

let dirs: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const d of dirs) d.cleanup();
  dirs = [];
});

async function fileApp(env: Record<string, string> = {}) {
  const dir = tempDir("unisson-backups-");
  dirs.push(dir);
  const t = await createTestApp({ env: { DATA_DIR: dir.path, DATABASE_PATH: join(dir.path, "unisson.db"), ...env } });
  return { ...t, dir: dir.path, backups: join(dir.path, "backups") };
}

describe("automatic backups", () => {
  test("BACKUP_INTERVAL and BACKUP_KEEP are read as durations and counts; a bad value names the variable", () => {
    expect(loadConfig({ BACKUP_INTERVAL: "6h", BACKUP_KEEP: "10" }).backup).toEqual({ intervalMs: 6 * 3_600_000, keep: 10 });
    expect(loadConfig({}).backup).toEqual({ intervalMs: undefined, keep: 28 });
    expect(() => loadConfig({ BACKUP_INTERVAL: "six heures" })).toThrow(
      'Configuration invalide : BACKUP_INTERVAL="six heures" doit être une durée comme 30m, 6h ou 1d',
    );
    expect(() => loadConfig({ BACKUP_KEEP: "0" })).toThrow("BACKUP_KEEP");
  });

  test("no backup job without BACKUP_INTERVAL; one, at that interval, with it", async () => {
    expect(backupJobs((await fileApp()).deps)).toEqual([]);
    const jobs = backupJobs((await fileApp({ BACKUP_INTERVAL: "30m" })).deps);
    expect(jobs.map((j) => [j.name, j.everyMs])).toEqual([["backup", 30 * 60_000]]);
  });

  test("rotation keeps the newest BACKUP_KEEP copies (0600, sound, holding the data) and never the operator's or pre-migration files", async () => {
    const t = await fileApp({ BACKUP_INTERVAL: "6h", BACKUP_KEEP: "3" });
    await makeUser(t.db, t.clock.now(), { email: "garde@example.fr" });
    await takeAutomaticBackup(t.deps);
    writeFileSync(join(t.backups, "pre-migrate-2.db"), "x");
    writeFileSync(join(t.backups, "ma-copie.db"), "x");
    for (let i = 0; i < 4; i++) {
      t.clock.advance(6 * 3_600_000);
      await takeAutomaticBackup(t.deps);
    }
    const names = readdirSync(t.backups).sort();
    expect(names).toEqual(["ma-copie.db", "pre-migrate-2.db", "unisson-20260115-220000.db", "unisson-20260116-040000.db", "unisson-20260116-100000.db"]);
    for (const name of names.filter((n) => n.startsWith("unisson-"))) {
      const file = join(t.backups, name);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const copy = new Database(file, { readonly: true });
      expect(copy.query("SELECT email FROM users").all()).toEqual([{ email: "garde@example.fr" }]);
      copy.close();
    }
  });
});

describe("AI-call log retention", () => {
  test("keeps 90 days of calls and 7 days of probes", async () => {
    const t = await createTestApp();
    const now = t.clock.now().getTime();
    const add = (purpose: string, daysAgo: number) =>
      t.db.$client.run("INSERT INTO ai_calls (model, provider, purpose, outcome, latency_ms, created_at) VALUES ('GPT-4', 'openai', ?, 'ok', 100, ?)", [
        purpose,
        now - daysAgo * DAY,
      ]);
    add("probe", 8);
    add("probe", 6);
    add("answer", 91);
    add("answer", 89);
    add("synthesis", 100);
    expect(await trimAiCalls(t.deps)).toEqual({ probes: 1, calls: 2 });
    expect(t.db.$client.query("SELECT purpose, (? - created_at) / 86400000 AS days FROM ai_calls ORDER BY id").all(now)).toEqual([
      { purpose: "probe", days: 6 },
      { purpose: "answer", days: 89 },
    ]);
  });
});
