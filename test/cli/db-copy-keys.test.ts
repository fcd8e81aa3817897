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

/**
 * `db copy` of such a folder into a fresh PostgreSQL database, with `env`:
 * its result, the target's table count (0: nothing written) and Mistral
 * Large's stored key there (when copied).
 */
async function copyToPostgres(env: Record<string, string>, sealWith?: string) {
  const dir = await sqliteWithKey(sealWith);
  const target = (await freshPostgresDatabase())!;
  try {
    const r = runCli(["db", "copy", "--to", target.url], dir, env);
    const pg = pgClient(target.url);
    try {
      const [{ n }] = await pg`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`;
      const [row] = n > 0 ? await pg`SELECT api_key_enc FROM council_members WHERE name = 'Mistral Large'` : [];
      return { r, tables: n as number, sealed: row?.api_key_enc as string | undefined, dir };
    } finally {
      await pg.close();
    }
  } finally {
    await target.drop();
  }
}

describe.skipIf(postgresTestUrl() === undefined)("unisson db copy: council keys", () => {
  test("from secret.key to PostgreSQL with TARGET_SECRET_KEY: the keys are sealed again, the target's SECRET_KEY opens them", async () => {
    const { r, sealed, dir } = await copyToPostgres({ TARGET_SECRET_KEY: TARGET });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Clés d'API du conseil chiffrées de nouveau pour la destination (TARGET_SECRET_KEY) : 1.");
    expect(openSecret(loadSecretKey({ secretKey: TARGET, dataDir: dir }), sealed!)).toBe(MEMBER_KEY);
  });

  test("from secret.key without TARGET_SECRET_KEY: refused in French (exit 1) before anything is written", async () => {
    const { r, tables } = await copyToPostgres({});
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      "Copie refusée, rien n'est écrit : 1 clé(s) d'API du conseil sont chiffrées avec le fichier secret.key, que la destination n'aura pas. Définissez TARGET_SECRET_KEY (au moins 32 caractères) : la SECRET_KEY des serveurs de la destination ; la copie les y chiffre de nouveau avec elle.",
    );
    expect(tables).toBe(0);
  });

  test("a key the source's own key does not open: refused in French naming the member (exit 1), nothing written", async () => {
    const { r, tables } = await copyToPostgres({ TARGET_SECRET_KEY: TARGET }, "une-ancienne-SECRET_KEY-perdue-depuis-32+");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Copie refusée, rien n'est écrit : la clé d'API du modèle « Mistral Large » ne s'ouvre pas avec la clé de la source");
    expect(tables).toBe(0);
  });

  test("a TARGET_SECRET_KEY under 32 characters is refused in French (exit 1)", async () => {
    const { r, tables } = await copyToPostgres({ TARGET_SECRET_KEY: "trop-courte" });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      "TARGET_SECRET_KEY doit compter au moins 32 caractères (par exemple `openssl rand -base64 32`) : c'est la SECRET_KEY de la destination.",
    );
    expect(tables).toBe(0);
  });
});
