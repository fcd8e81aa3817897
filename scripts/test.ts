/**
 * The whole test suite, in four bun processes: server and CLI tests, the
 * server tests again on PostgreSQL (when a throwaway cluster could start), web
 * component tests (happy-dom replaces browser globals, which must never leak
 * into server tests), and the end-to-end browser tests. Prints one closing
 * line with the totals and exits non-zero if anything failed.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findPgBin, type PostgresCluster, startPostgresCluster } from "../test/helpers/postgres.ts";
import { POSTGRES_FILES } from "../test/server/postgres-files.ts";

const root = join(import.meta.dir, "..");
const groups = [["test/server", "test/cli"], ["test/web"], ["test/e2e"]].map((g) => g.filter((dir) => existsSync(join(root, dir)))).filter((g) => g.length > 0);

// One throwaway PostgreSQL for the whole run (test/helpers/postgres.ts); each test file takes its own database on it.
let postgres: PostgresCluster | undefined;
const pgBin = findPgBin();
if (pgBin) {
  postgres = startPostgresCluster(pgBin);
  console.log(`PostgreSQL de test : ${postgres.url} (${pgBin})`);
} else {
  console.log("PostgreSQL absent (pas d'initdb) : les tests PostgreSQL seront ignorés");
}
// Stopped (and its folder deleted) however the run ends, Ctrl-C included.
process.on("exit", () => postgres?.stop());
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
const env = { ...process.env, ...(postgres ? { TEST_POSTGRES_URL: postgres.url } : {}) };

// The server tests a second time with every test app on its own PostgreSQL database (test/helpers/test-database.ts),
// for the files that pass there today (test/server/postgres-files.ts says which and why the others not).
const runs: Array<{ group: string[]; env: Record<string, string | undefined>; label: string }> = groups.map((group) => ({
  group,
  env,
  label: group.join(" "),
}));
if (postgres) runs.splice(1, 0, { group: POSTGRES_FILES, env: { ...env, TEST_DATABASE: "postgres" }, label: "test/server sur PostgreSQL" });

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const { group, env: runEnv, label } of runs) {
  console.log(`\n=== bun test ${label}`);
  const proc = Bun.spawn([process.execPath, "test", "--timeout", "30000", ...group, ...process.argv.slice(2)], {
    cwd: root,
    env: runEnv,
    stdout: "inherit",
    stderr: "pipe",
  });
  // bun test writes its report to stderr: pass it through and read the totals.
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stderr) {
    const s = decoder.decode(chunk, { stream: true });
    text += s;
    process.stderr.write(s);
  }
  const code = await proc.exited;
  passed += Number(text.match(/^\s*(\d+) pass$/m)?.[1] ?? 0);
  failed += Number(text.match(/^\s*(\d+) fail$/m)?.[1] ?? 0);
  if (code !== 0) exitCode = code;
}
postgres?.stop();
console.log(`\nTotal: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 && exitCode === 0 ? 1 : exitCode);
