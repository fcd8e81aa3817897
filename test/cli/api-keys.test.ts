import { describe, expect, test } from "bun:test";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { runCli, useDataDirs, withDb } from "../helpers/cli.ts";
import { makeUser } from "../helpers/fixtures.ts";

const dataDir = useDataDirs();

describe("unisson users api-keys", () => {
  test("lists an account's keys (name, start, dates), never a secret", () => {
    const dir = dataDir();
    const secret = withDb(dir, (db) => {
      const { user } = makeUser(db, new Date(), { email: "lea@example.fr" });
      createApiKey(db, user.id, "Open WebUI", new Date());
      return createApiKey(db, user.id, "Script", new Date()).secret;
    });
    const r = runCli(["users", "api-keys", "lea@example.fr"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Open WebUI");
    expect(r.stdout).toContain(`${secret.slice(0, 12)}…`);
    expect(r.stdout).toContain("2 clé(s) d'API pour lea@example.fr");
    expect(r.stdout).not.toContain(secret);
  });

  test("--revoke ID revokes that key and lists the rest", () => {
    const dir = dataDir();
    const id = withDb(dir, (db) => {
      const { user } = makeUser(db, new Date(), { email: "lea@example.fr" });
      createApiKey(db, user.id, "Garder", new Date());
      return createApiKey(db, user.id, "Révoquer", new Date()).key.id;
    });
    const r = runCli(["users", "api-keys", "lea@example.fr", "--revoke", String(id), "--json"], dir);
    expect(r.code).toBe(0);
    expect(r.json().keys.map((k: { name: string }) => k.name)).toEqual(["Garder"]);
    const revoked = withDb(dir, (db) => db.$client.query("SELECT revoked_at FROM api_keys WHERE id = ?").get(id) as { revoked_at: number | null });
    expect(revoked.revoked_at).not.toBeNull();
  });

  test("--revoke of an unknown key: a French line, exit 1", () => {
    const dir = dataDir();
    withDb(dir, (db) => makeUser(db, new Date(), { email: "lea@example.fr" }));
    const r = runCli(["users", "api-keys", "lea@example.fr", "--revoke", "99"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Clé d'API introuvable.");
  });
});
