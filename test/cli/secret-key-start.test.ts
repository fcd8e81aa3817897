import { expect, test } from "bun:test";
import { runCli, useDataDirs } from "../helpers/cli.ts";

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
