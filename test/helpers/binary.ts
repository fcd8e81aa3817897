import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
export const BINARY = join(root, "dist", "unisson");

let built = false;
/** Builds dist/unisson once per test process (about a second), as `npm run build` does. */
export function ensureBinary(): string {
  if (!built) {
    const r = Bun.spawnSync([process.execPath, "run", "build"], { cwd: root, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0 || !existsSync(BINARY)) throw new Error(`build failed: ${r.stderr.toString()}`);
    built = statSync(BINARY).size > 0;
  }
  return BINARY;
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
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return { proc, url, port };
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) break;
    await Bun.sleep(50);
  }
  proc.kill();
  throw new Error(`server did not start: ${await new Response(proc.stderr).text()}`);
}

/** Runs the executable as the CLI; returns exit code and output. */
export function runBinary(args: string[], env: Record<string, string>, cwd: string) {
  const r = Bun.spawnSync([ensureBinary(), ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}
