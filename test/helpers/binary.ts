import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { TEST_PASSWORD_HASH_ENV } from "./password-cost.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../../scripts/build-binary.ts";

let binary: string | undefined;

/**
 * Compiles the executable once per test process, the way `npm run build` does
 * (the SPA build comes from the test preload), into a folder of its own so
 * parallel test runs never write the same file. `npm test` builds it once for
 * all its processes and names it in UNISSON_TEST_BINARY.
 */
export function ensureBinary(): string {
  binary ??= process.env.UNISSON_TEST_BINARY || undefined;
  if (!binary) {
    removeStaleBinaries();
    const dir = mkdtempSync(join(tmpdir(), "unisson-bin-"));
    const out = join(dir, "unisson");
    const r = buildBinary(out);
    if (r.exitCode !== 0 || !existsSync(out) || statSync(out).size === 0) throw new Error(`build failed: ${r.stderr}`);
    binary = out;
  }
  return binary;
}

/**
 * Each test process leaves its executable behind (about 137 MB; bun test
 * gives no reliable exit hook): builds older than two hours are removed,
 * which no running test or benchmark still uses.
 */
function removeStaleBinaries() {
  const cutoff = Date.now() - 2 * 60 * 60 * 1000;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith("unisson-bin-")) continue;
    const path = join(tmpdir(), name);
    try {
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another test process meanwhile.
    }
  }
}

export function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

export function tempDir(prefix = "unisson-"): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Starts the executable as a server and waits for /api/health. */
export async function startBinary(env: Record<string, string>, cwd: string) {
  const port = freePort();
  const proc = Bun.spawn([ensureBinary(), "serve"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: String(port), ...TEST_PASSWORD_HASH_ENV, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  // Both pipes are read for the server's whole life: a pipe nobody reads fills (64 KB) and the server's next log
  // write blocks it. What it printed is handed out by `stdout()` / `stderr()` once it has exited.
  const stdout = readAll(proc.stdout);
  const stderr = readAll(proc.stderr);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return { proc, url, port, stdout: () => stdout, stderr: () => stderr };
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) break;
    await Bun.sleep(50);
  }
  proc.kill();
  throw new Error(`server did not start: ${await stderr}`);
}

/** A stream read to its end in the background, as text (a failed read gives what came before it). */
function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text().catch(() => "");
}

/** Runs the executable as the CLI; returns exit code and output. */
export function runBinary(args: string[], env: Record<string, string>, cwd: string) {
  const r = Bun.spawnSync([ensureBinary(), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...TEST_PASSWORD_HASH_ENV, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}
