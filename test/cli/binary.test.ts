import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runBinary, startBinary, tempDir } from "../helpers/binary.ts";
import { freshPostgresDatabase, postgresTestUrl } from "../helpers/postgres.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());

describe("the compiled executable", () => {
  test("serves /api/health and the SPA from an empty folder with its own data dir", async () => {
    const { proc, url } = await startBinary({}, dir.path);
    try {
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      const page = await fetch(`${url}/`);
      const html = await page.text();
      expect(html).toContain('<div id="root">');
      const js = html.match(/\/assets\/main-[a-z0-9]+\.js/)![0];
      const asset = await fetch(`${url}${js}`);
      expect(asset.status).toBe(200);
      expect(existsSync(join(dir.path, "data", "unisson.db"))).toBe(true);
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
  });

  test("creates the configured admin once, printing a generated password", async () => {
    const d = tempDir();
    try {
      const { proc, stdout } = await startBinary({ ADMIN_EMAIL: "root@example.fr" }, d.path);
      proc.kill("SIGTERM");
      await proc.exited;
      const out = await stdout();
      expect(out).toMatch(/Administrateur créé : root@example\.fr — mot de passe \(affiché une seule fois\) : \S{12,}/);
      const again = await startBinary({ ADMIN_EMAIL: "root@example.fr" }, d.path);
      again.proc.kill("SIGTERM");
      await again.proc.exited;
      expect(await again.stdout()).not.toContain("Administrateur créé");
    } finally {
      d.cleanup();
    }
  });

  test("a wrong PORT stops with one clear line and exit code 1", () => {
    const r = runBinary(["serve"], { PORT: "abc" }, dir.path);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Configuration invalide : PORT="abc" doit être un numéro de port (1-65535)');
    expect(r.stdout).toBe("");
  });

  test("`migrate --json` reports what it applied", () => {
    const d = tempDir();
    try {
      const first = runBinary(["migrate", "--json", "--data-dir", d.path], {}, d.path);
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout).applied).toBeGreaterThan(0);
      const second = runBinary(["migrate", "--json", "--data-dir", d.path], {}, d.path);
      expect(JSON.parse(second.stdout).applied).toBe(0);
    } finally {
      d.cleanup();
    }
  });

  test.skipIf(!postgresTestUrl())("carries the PostgreSQL migrations too: `db copy` migrates an empty PostgreSQL database", async () => {
    const d = tempDir();
    const pg = (await freshPostgresDatabase())!;
    try {
      expect(runBinary(["migrate", "--data-dir", d.path], {}, d.path).code).toBe(0);
      const r = runBinary(["db", "copy", "--to", pg.url, "--json", "--data-dir", d.path], {}, d.path);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).tables).toHaveLength(29);
    } finally {
      await pg.drop();
      d.cleanup();
    }
  });

  test("an unknown option is a usage error (exit 2)", () => {
    const r = runBinary(["migrate", "--nope"], {}, dir.path);
    expect(r.code).toBe(2);
  });
});
