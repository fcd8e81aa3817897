import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findPgBin } from "../helpers/postgres.ts";

/** `npm run test:file -- <path>` and `npm run test:file:pg -- <path>` (scripts/test-file.ts), as the README's Development section gives them. */
const root = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "unisson-test-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const small = join(dir, "small.test.ts");
writeFileSync(
  small,
  `import { expect, test } from "bun:test";
test("the database of this run", () => console.log("database:", process.env.TEST_DATABASE || "sqlite", Boolean(process.env.TEST_POSTGRES_URL)));
test("arithmetic", () => expect(1 + 1).toBe(2));
`,
);

async function npm(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(["npm", "run", "--silent", ...args], {
    cwd: root,
    env: { ...process.env, TEST_DATABASE: "", TEST_POSTGRES_URL: "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, text: out + err };
}

describe("one test, one command", () => {
  test("npm run test:file -- <path> runs that file and only it", async () => {
    const r = await npm(["test:file", "--", small]);
    expect(r.code).toBe(0);
    expect(r.text).toContain("database: sqlite false");
    expect(r.text).toMatch(/^ 2 pass$/m);
    expect(r.text).toContain("Ran 2 tests across 1 file");
  }, 30_000);

  test("a path that does not exist is named in one French line, exit 2", async () => {
    const r = await npm(["test:file", "--", "test/server/nothing-here.test.ts"]);
    expect(r.code).toBe(2);
    expect(r.text).toContain("Fichier de test introuvable : test/server/nothing-here.test.ts");
  }, 30_000);

  test.skipIf(!findPgBin())(
    "npm run test:file:pg -- <path> runs it on a throwaway PostgreSQL cluster",
    async () => {
      const r = await npm(["test:file:pg", "--", small]);
      expect(r.code).toBe(0);
      expect(r.text).toContain("database: postgres true");
      expect(r.text).toMatch(/^ 2 pass$/m);
    },
    60_000,
  );
});
