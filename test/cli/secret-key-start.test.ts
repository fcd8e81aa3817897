import { expect, test } from "bun:test";
import { updateMember } from "../../src/council/council.store.ts";
import { loadSecretKey, sealedKey } from "../../src/council/secret-box.ts";
import { TEST_SECRET_KEY } from "../helpers/app.ts";
import { startBinary } from "../helpers/binary.ts";
import { runCli, useDataDirs, withDb } from "../helpers/cli.ts";

const dataDir = useDataDirs();

test("`serve` on PostgreSQL without SECRET_KEY stops before anything starts, with one French line", async () => {
  // Refused before the database is opened: no PostgreSQL needs to listen there.
  const r = runCli(["serve"], await dataDir({ empty: true }), { DATABASE_URL: "postgres://unisson@127.0.0.1:1/unisson" });
  expect(r.code).toBe(1);
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("SECRET_KEY manquante : avec PostgreSQL (DATABASE_URL), définissez SECRET_KEY");
});

test("a SECRET_KEY shorter than 32 characters is refused without being echoed", async () => {
  const r = runCli(["serve"], await dataDir({ empty: true }), { SECRET_KEY: "trop-courte-123" });
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe('Configuration invalide : SECRET_KEY="[masqué]" doit compter au moins 32 caractères (par exemple `openssl rand -base64 32`)');
});

test("a council key this SECRET_KEY does not open: the start line names its member among the missing ones (issue 46)", async () => {
  const dir = await dataDir();
  await withDb(dir, async (db) => {
    const lost = loadSecretKey({ secretKey: "la-SECRET_KEY-d-avant-le-changement-32+", dataDir: dir });
    await updateMember(db, "Mistral Large", sealedKey(lost, "sk-mistral-member-key-0042"), new Date());
  });
  // Its provider's own key is set: before issue 48, the member ran with it and the line said nothing was missing.
  const env = {
    DATA_DIR: dir,
    SECRET_KEY: TEST_SECRET_KEY,
    MISTRAL_API_KEY: "cle-mistral-de-l-operateur",
    MISTRAL_BASE_URL: "http://127.0.0.1:9",
    LOG_FORMAT: "json",
  };
  const server = await startBinary(env, dir);
  server.proc.kill();
  await server.proc.exited;
  const lines = (await server.stdout())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.find((l) => l.msg === "configuration")?.models_missing).toContain("Mistral Large");
});
