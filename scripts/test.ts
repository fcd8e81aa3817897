/**
 * The whole test suite, in three bun processes: server and CLI tests, web
 * component tests (happy-dom replaces browser globals, which must never leak
 * into server tests), and the end-to-end browser tests. Prints one closing
 * line with the totals and exits non-zero if anything failed.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const groups = [["test/server", "test/cli"], ["test/web"], ["test/e2e"]].map((g) => g.filter((dir) => existsSync(join(root, dir)))).filter((g) => g.length > 0);

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const group of groups) {
  console.log(`\n=== bun test ${group.join(" ")}`);
  const proc = Bun.spawn([process.execPath, "test", "--timeout", "30000", ...group, ...process.argv.slice(2)], {
    cwd: root,
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
console.log(`\nTotal: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 && exitCode === 0 ? 1 : exitCode);
