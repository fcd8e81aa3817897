import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { updateMember } from "../../src/council/council.store.ts";
import { loadSecretKey, openSecret, sealedKey } from "../../src/council/secret-box.ts";
import { runCli, useDataDirs, withDb } from "../helpers/cli.ts";
import { freshPostgresDatabase, postgresTestUrl, pgClient } from "../helpers/postgres.ts";

/**
 * `unisson db copy` and the council's API keys (issue 46): a SQLite
 * installation on its default DATA_DIR/secret.key moving to PostgreSQL
 * (where SECRET_KEY is required) has its keys sealed again with the target's
 * key, or the copy refuses before writing anything; never exit 0 with keys
 * nobody can open.
 */
const dataDir = useDataDirs();
const MEMBER_KEY = "sk-member-key-moved-7f3a";
/** The SECRET_KEY the PostgreSQL servers will have. */
const TARGET = randomBytes(32).toString("base64");

/** A data folder on its default secret.key whose Mistral Large has a stored key (sealed with that file, or with `sealWith`). */
async function sqliteWithKey(sealWith?: string): Promise<string> {
  const dir = await dataDir();
  expect(runCli(["migrate"], dir).code).toBe(0);
  // The folder's secret.key (created as a first start does); `sealWith`: the key was sealed under another key since lost.
  const fileKey = loadSecretKey({ dataDir: dir });
  const key = sealWith ? loadSecretKey({ secretKey: sealWith, dataDir: dir }) : fileKey;
  await withDb(dir, async (db) => {
    await updateMember(db, "Mistral Large", sealedKey(key, MEMBER_KEY), new Date());
  });
  return dir;
}

/** The target's tables: none when nothing was written. */
async function publicTables(url: string): Promise<number> {
  const pg = pgClient(url);
  try {
    const [row] = await pg`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`;
    return row.n;
  } finally {
    await pg.close();
  }
}

describe.skipIf(postgresTestUrl() === undefined)("unisson db copy: council keys", () => {
  test("from secret.key to PostgreSQL with TARGET_SECRET_KEY: the keys are sealed again, the target's SECRET_KEY opens them", async () => {
    const dir = await sqliteWithKey();
    const target = (await freshPostgresDatabase())!;
    try {
      const r = runCli(["db", "copy", "--to", target.url], dir, { TARGET_SECRET_KEY: TARGET });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Clés d'API du conseil chiffrées de nouveau pour la destination (TARGET_SECRET_KEY) : 1.");
      const pg = pgClient(target.url);
      try {
        const [row] = await pg`SELECT api_key_enc FROM council_members WHERE name = 'Mistral Large'`;
        expect(openSecret(loadSecretKey({ secretKey: TARGET, dataDir: dir }), row.api_key_enc)).toBe(MEMBER_KEY);
      } finally {
        await pg.close();
      }
    } finally {
      await target.drop();
    }
  });

  test("from secret.key without TARGET_SECRET_KEY: refused in French (exit 1) before anything is written", async () => {
    const dir = await sqliteWithKey();
    const target = (await freshPostgresDatabase())!;
    try {
      const r = runCli(["db", "copy", "--to", target.url], dir);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        "Copie refusée, rien n'est écrit : 1 clé(s) d'API du conseil sont chiffrées avec le fichier secret.key, que la destination n'aura pas. Définissez TARGET_SECRET_KEY (au moins 32 caractères) : la SECRET_KEY des serveurs de la destination ; la copie les y chiffre de nouveau avec elle.",
      );
      expect(await publicTables(target.url)).toBe(0);
    } finally {
      await target.drop();
    }
  });

  test("a key the source's own key does not open: refused in French naming the member (exit 1), nothing written", async () => {
    const dir = await sqliteWithKey("une-ancienne-SECRET_KEY-perdue-depuis-32+");
    const target = (await freshPostgresDatabase())!;
    try {
      const r = runCli(["db", "copy", "--to", target.url], dir, { TARGET_SECRET_KEY: TARGET });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Copie refusée, rien n'est écrit : la clé d'API du modèle « Mistral Large » ne s'ouvre pas avec la clé de la source");
      expect(await publicTables(target.url)).toBe(0);
    } finally {
      await target.drop();
    }
  });

  test("a TARGET_SECRET_KEY under 32 characters is refused in French (exit 1)", async () => {
    const dir = await sqliteWithKey();
    const target = (await freshPostgresDatabase())!;
    try {
      const r = runCli(["db", "copy", "--to", target.url], dir, { TARGET_SECRET_KEY: "trop-courte" });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        "TARGET_SECRET_KEY doit compter au moins 32 caractères (par exemple `openssl rand -base64 32`) : c'est la SECRET_KEY de la destination.",
      );
      expect(await publicTables(target.url)).toBe(0);
    } finally {
      await target.drop();
    }
  });
});
