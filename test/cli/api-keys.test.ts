import { describe, expect, test } from "bun:test";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { runCli, useDataDirs, withDb } from "../helpers/cli.ts";
import { makeUser } from "../helpers/fixtures.ts";

const dataDir = useDataDirs();

describe("unisson users api-keys", () => {
  test("lists an account's keys (name, start, dates), never a secret", async () => {
    const dir = await dataDir();
    const secret = await withDb(dir, async (db) => {
      const { user } = await makeUser(db, new Date(), { email: "lea@example.fr" });
      await createApiKey(db, user.id, "Open WebUI", new Date());
      return (await createApiKey(db, user.id, "Script", new Date())).secret;
    });
    const r = runCli(["users", "api-keys", "lea@example.fr"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Open WebUI");
    expect(r.stdout).toContain(`${secret.slice(0, 12)}…`);
    expect(r.stdout).toContain("2 clé(s) d'API pour lea@example.fr");
    expect(r.stdout).not.toContain(secret);
  });

  test("--revoke ID revokes that key and lists the rest", async () => {
    const dir = await dataDir();
    const id = await withDb(dir, async (db) => {
      const { user } = await makeUser(db, new Date(), { email: "lea@example.fr" });
      await createApiKey(db, user.id, "Garder", new Date());
      return (await createApiKey(db, user.id, "Révoquer", new Date())).key.id;
    });
    const r = runCli(["users", "api-keys", "lea@example.fr", "--revoke", String(id), "--json"], dir);
    expect(r.code).toBe(0);
    expect(r.json().keys.map((k: { name: string }) => k.name)).toEqual(["Garder"]);
    const revoked = await withDb(dir, (db) => db.$client.query("SELECT revoked_at FROM api_keys WHERE id = ?").get(id) as { revoked_at: number | null });
    expect(revoked.revoked_at).not.toBeNull();
  });

  test("--revoke of an unknown key: a French line, exit 1", async () => {
    const dir = await dataDir();
    await withDb(dir, async (db) => await makeUser(db, new Date(), { email: "lea@example.fr" }));
    const r = runCli(["users", "api-keys", "lea@example.fr", "--revoke", "99"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Clé d'API introuvable.");
  });
});
