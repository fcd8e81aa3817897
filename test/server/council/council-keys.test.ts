import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { backupDatabase } from "../../../src/admin/backup.ts";
import { findMember, updateMember } from "../../../src/council/council.store.ts";
import { loadSecretKey, openSecret, sealedKey } from "../../../src/council/secret-box.ts";
import { createTestApp, TEST_SECRET_KEY } from "../../helpers/app.ts";
import { runCli, useDataDirs, withDb } from "../../helpers/cli.ts";
import { freshPostgresDatabase, postgresTestUrl, pgClient } from "../../helpers/postgres.ts";
import { SQLITE_ONLY } from "../../helpers/test-database.ts";
import { askReady, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { addLlama, LLAMA } from "./council.helpers.ts";

/** A member's API key is stored sealed (AES-256-GCM): never in clear in the database, its backups, copies or the log. */
const fakes = useFakeProviders();
const dataDir = useDataDirs();

/** The bytes of a SQLite database and its write-ahead log, as text. */
function fileText(path: string): string {
  return [path, `${path}-wal`]
    .filter(existsSync)
    .map((f) => readFileSync(f).toString("latin1"))
    .join("");
}

describe("council keys at rest", () => {
  test("the stored row holds the sealed key and its last four characters only; SECRET_KEY opens it", async () => {
    const t = await createTestApp({ env: { ...fakes().env } });
    await addLlama(t, fakes());
    const row = (await findMember(t.db, LLAMA.name))!;
    expect(JSON.stringify(row)).not.toContain(LLAMA.key);
    expect(row.apiKeyLast4).toBe(LLAMA.key.slice(-4));
    expect(openSecret(loadSecretKey(t.config), row.apiKeyEnc!)).toBe(LLAMA.key);
  });

  test("the member answers with its key, and neither the log of the question nor the model list shows it", async () => {
    const t = await chatApp(fakes());
    await addLlama(t, fakes());
    const id = await askReady(t);
    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(res.body.available_ais).toContain(LLAMA.name);
    const models = await t.call("GET", "/api/unisson/models");
    expect(`${t.log.lines.join("\n")}${JSON.stringify(models.body)}`).not.toContain(LLAMA.key);
  });

  test.skipIf(SQLITE_ONLY)("the SQLite file and a backup of it hold no byte of the key in clear", async () => {
    const dir = await dataDir();
    const file = join(dir, "unisson.db");
    const t = await createTestApp({ env: { ...fakes().env, DATABASE_PATH: file } });
    await addLlama(t, fakes());
    await updateMember(t.db, "GPT-4", sealedKey(loadSecretKey(t.config), "sk-openai-second-key-91b2"), t.clock.now());
    const backup = join(dir, "copie.db");
    await backupDatabase(t.db, backup);
    for (const text of [fileText(file), fileText(backup)]) {
      expect(text).toContain(LLAMA.name);
      expect(text).not.toContain(LLAMA.key);
      expect(text).not.toContain("sk-openai-second-key");
    }
  });
});

describe.skipIf(SQLITE_ONLY || postgresTestUrl() === undefined)("unisson db copy", () => {
  test("copies the sealed key as it is: none in clear on PostgreSQL, the same SECRET_KEY opens it there", async () => {
    const dir = await dataDir();
    expect(runCli(["migrate"], dir).code).toBe(0);
    await withDb(dir, async (db) => {
      await updateMember(db, "Mistral Large", sealedKey(loadSecretKey({ secretKey: TEST_SECRET_KEY, dataDir: dir }), LLAMA.key), new Date());
    });
    const target = (await freshPostgresDatabase())!;
    try {
      const r = runCli(["db", "copy", "--to", target.url], dir, { SECRET_KEY: TEST_SECRET_KEY });
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(LLAMA.key);
      const pg = pgClient(target.url);
      try {
        const rows = await pg`SELECT * FROM council_members`;
        expect(JSON.stringify(rows)).not.toContain(LLAMA.key);
        const [mistral] = await pg`SELECT api_key_enc FROM council_members WHERE name = 'Mistral Large'`;
        expect(openSecret(loadSecretKey({ secretKey: TEST_SECRET_KEY, dataDir: dir }), mistral.api_key_enc)).toBe(LLAMA.key);
      } finally {
        await pg.close();
      }
    } finally {
      await target.drop();
    }
  });
});
