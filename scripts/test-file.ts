/**
 * One test file, or a few (`npm run test:file -- test/server/chat/live.test.ts`),
 * with the suite's timeout; `--pg` (`npm run test:file:pg -- <path>`) runs
 * them on PostgreSQL as `npm test`'s PostgreSQL pass does: a throwaway
 * cluster in a temporary folder (test/helpers/postgres.ts), one database per
 * test app, all deleted at the end. Extra `bun test` options pass through
 * (`-t "name"`, `--bail`).
 */
import { existsSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { HTTP_CLIENT_ENV } from "../src/system/http-client-cap.ts";
import { findPgBin, type PostgresCluster, startPostgresCluster } from "../test/helpers/postgres.ts";
import { POSTGRES_FILES } from "../test/server/postgres-files.ts";

const root = join(import.meta.dir, "..");
// npm runs scripts from the package's folder; paths are read from where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2);
const onPg = args.includes("--pg");
const rest = args.filter((a) => a !== "--pg");
// Values of options such as -t "name" stay with their option; the rest are paths.
const paths = rest.filter((a, i) => !a.startsWith("-") && !["-t", "--test-name-pattern"].includes(rest[i - 1] ?? ""));
const options = rest.filter((a) => !paths.includes(a));

if (paths.length === 0) {
  console.error("Usage : npm run test:file -- <fichier ou dossier de test>… (npm run test:file:pg -- … pour PostgreSQL)");
  process.exit(2);
}
for (const p of paths) {
  if (!existsSync(resolve(cwd, p))) {
    console.error(`Fichier de test introuvable : ${p}`);
    process.exit(2);
  }
}
// bun test reads a bare name as a filter; ./path (or an absolute one) is exactly that file.
const targets = paths.map((p) => {
  const rel = relative(root, resolve(cwd, p));
  return rel.startsWith("..") || isAbsolute(rel) ? resolve(cwd, p) : `./${rel}`;
});

// As npm test (scripts/test.ts): the in-process test apps get the executable's HTTP client cap.
const env: Record<string, string | undefined> = { ...HTTP_CLIENT_ENV, ...process.env };
let postgres: PostgresCluster | undefined;
if (onPg) {
  const bin = findPgBin();
  if (!bin) {
    console.error("PostgreSQL introuvable (pas d'initdb sur le PATH, dans PG_BIN ni dans /usr/lib/postgresql/<version>/bin) : apt-get install postgresql");
    process.exit(1);
  }
  for (const t of targets) {
    if (t.endsWith(".ts") && !POSTGRES_FILES.includes(t.slice(2)))
      console.warn(`Note : ${t.slice(2)} n'est pas dans test/server/postgres-files.ts (npm test ne le passe pas sur PostgreSQL)`);
  }
  postgres = startPostgresCluster(bin);
  process.on("exit", () => postgres?.stop());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
  env.TEST_POSTGRES_URL = postgres.url;
  env.TEST_DATABASE = "postgres";
  console.log(`PostgreSQL de test : ${postgres.url}`);
}

const proc = Bun.spawn([process.execPath, "test", "--timeout", "30000", ...options, ...targets], { cwd: root, env, stdio: ["inherit", "inherit", "inherit"] });
const code = await proc.exited;
postgres?.stop();
process.exit(code);
