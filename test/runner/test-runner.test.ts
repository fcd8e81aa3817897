import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCounts, totalLine } from "../../scripts/test-runner/counts.ts";
import { planLanes, processesOf } from "../../scripts/test-runner/lanes.ts";
import { fileDurations } from "../../scripts/test-runner/timings.ts";

/**
 * scripts/test.ts (`npm test`) on a tiny folder of test files, with
 * PostgreSQL and Chromium hidden (PG_BIN, CHROMIUM_PATH pointing nowhere):
 * what it counts, what its closing line says, when it fails.
 */
const root = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "unisson-runner-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tinyFolder(name: string, files: Record<string, string>): string {
  const folder = join(dir, name);
  Bun.spawnSync(["mkdir", "-p", folder]);
  for (const [file, body] of Object.entries(files)) writeFileSync(join(folder, file), `import { expect, test } from "bun:test";\n${body}\n`);
  return folder;
}

async function runner(folder: string, env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, join(root, "scripts", "test.ts"), folder], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PG_BIN: join(dir, "no-postgres"), CHROMIUM_PATH: join(dir, "no-chromium"), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  return { code, out, err, last: out.trimEnd().split("\n").at(-1) };
}

const passing = tinyFolder("passing", {
  "a.test.ts": `test("one", () => expect(1).toBe(1));\ntest.skip("skipped", () => {});\ntest.todo("later");`,
  "b.test.ts": `test("two", () => expect(2).toBe(2));\ntest.skipIf(true)("not here", () => {});`,
});

describe("npm test's closing line", () => {
  test("counts passed, failed and skipped (a todo is skipped) alone on the last line", async () => {
    const r = await runner(passing);
    expect(r.last).toBe("Total: 2 passed, 0 failed, 3 skipped");
    expect(r.code).toBe(0);
  });

  test("a failing test makes it say so and exit non-zero", async () => {
    const folder = tinyFolder("failing", { "c.test.ts": `test("ok", () => {});\ntest("broken", () => expect(1).toBe(2));` });
    const r = await runner(folder);
    expect(r.last).toBe("Total: 1 passed, 1 failed, 0 skipped");
    expect(r.code).toBe(1);
  });

  test("an error outside any test (the file does not load) is a failure, not a silent pass", async () => {
    const folder = tinyFolder("crashing", { "d.test.ts": `test("ok", () => {});\nthrow new Error("file broken");` });
    const r = await runner(folder);
    expect(r.code).not.toBe(0);
    expect(r.last).toMatch(/^Total: \d+ passed, [1-9]\d* failed, \d+ skipped$/);
  });

  test("files are shared between parallel processes and every one is counted once", async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`p${i}.test.ts`, `test("t${i}", () => {});`]));
    const r = await runner(tinyFolder("parallel", files), { TEST_LANES: "3" });
    expect(r.out).toContain("3 processus en parallèle");
    expect(r.last).toBe("Total: 5 passed, 0 failed, 0 skipped");
  });
});

describe("a machine without PostgreSQL or Chromium", () => {
  test("without REQUIRE_*: the run goes on and says PostgreSQL is absent", async () => {
    const r = await runner(passing);
    expect(r.out).toContain("PostgreSQL absent (pas d'initdb)");
    expect(r.code).toBe(0);
  });

  test("REQUIRE_POSTGRES=1 without initdb fails before running anything, naming what is missing", async () => {
    const r = await runner(passing, { REQUIRE_POSTGRES: "1" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("PostgreSQL requis (REQUIRE_POSTGRES=1) mais introuvable");
    expect(r.out).not.toContain("(pass)");
    expect(r.last).toBe("Total: 0 passed, 1 failed, 0 skipped");
  });

  test("REQUIRE_E2E=1 without Chromium fails, naming the path looked at", async () => {
    const r = await runner(passing, { REQUIRE_E2E: "1" });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`Chromium requis (REQUIRE_E2E=1) mais introuvable : ${join(dir, "no-chromium")}`);
  });

  test(".ci/run asks for both", async () => {
    const ci = await Bun.file(join(root, ".ci", "run")).text();
    expect(ci).toMatch(/REQUIRE_POSTGRES=1 REQUIRE_E2E=1 npm test/);
  });
});

describe("the runner's pieces", () => {
  test("bun test's report is read for pass, skip, todo and fail", () => {
    expect(parseCounts(" 12 pass\n 3 skip\n 1 todo\n 2 fail\n 40 expect() calls\n")).toEqual({ passed: 12, failed: 2, skipped: 4 });
    expect(totalLine({ passed: 1, failed: 0, skipped: 0 })).toBe("Total: 1 passed, 0 failed, 0 skipped");
  });

  test("lanes take the longest files first, each to the least loaded lane", () => {
    const jobs = ["a", "b", "c", "d"].map((f) => ({ kind: "sqlite" as const, file: f }));
    const timings = { "sqlite:a": { ms: 9 }, "sqlite:b": { ms: 5 }, "sqlite:c": { ms: 4 }, "sqlite:d": { ms: 1 } };
    const lanes = planLanes(jobs, 2, timings);
    expect(lanes.map((l) => l.jobs.map((j) => j.file))).toEqual([
      ["a", "d"],
      ["b", "c"],
    ]);
    expect(lanes.map((l) => l.estimateMs)).toEqual([10, 9]);
  });

  test("a lane runs one process per kind of file (PostgreSQL and web files never share a SQLite process)", () => {
    const lane = {
      estimateMs: 0,
      jobs: [
        { kind: "sqlite" as const, file: "x" },
        { kind: "postgres" as const, file: "x" },
        { kind: "web" as const, file: "w" },
        { kind: "sqlite" as const, file: "y" },
      ],
    };
    expect(processesOf(lane)).toEqual([
      { kind: "sqlite", files: ["x", "y"] },
      { kind: "postgres", files: ["x"] },
      { kind: "web", files: ["w"] },
    ]);
    // The second lane starts one kind further: the lanes do not all load PostgreSQL at once.
    expect(processesOf(lane, 1).map((p) => p.kind)).toEqual(["postgres", "web", "sqlite"]);
  });

  test("each web component file runs in a process of its own (a file that stalls React's scheduler cannot stall the next)", () => {
    const web = (file: string) => ({ kind: "web" as const, file });
    const lane = { estimateMs: 0, jobs: [web("a"), { kind: "sqlite" as const, file: "s" }, web("b")] };
    expect(processesOf(lane)).toEqual([
      { kind: "web", files: ["a"] },
      { kind: "web", files: ["b"] },
      { kind: "sqlite", files: ["s"] },
    ]);
  });

  test("each file's duration and test count come from the JUnit report", () => {
    const xml = `<testsuites name="bun test" tests="3" time="1.5">
  <testsuite name="test/a.test.ts" file="test/a.test.ts" tests="2" assertions="3" failures="0" skipped="0" time="1.25" hostname="vm">
    <testsuite name="inner" file="test/a.test.ts" line="3" tests="2" assertions="3" failures="0" skipped="0" time="0.5" hostname="vm">
    </testsuite>
  </testsuite>
  <testsuite name="test/b.test.ts" file="test/b.test.ts" tests="1" assertions="1" failures="0" skipped="0" time="0.002" hostname="vm">
  </testsuite>
</testsuites>`;
    expect(fileDurations(xml)).toEqual({ "test/a.test.ts": { ms: 1250, tests: 2 }, "test/b.test.ts": { ms: 2, tests: 1 } });
  });
});
