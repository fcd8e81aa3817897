import { join } from "node:path";
import { TEST_PASSWORD_HASH_ENV } from "./password-cost.ts";
import { freePort } from "./binary.ts";

const root = join(import.meta.dir, "..", "..");

/**
 * Starts the server from source (`bun src/main.ts serve`, as `npm start`
 * does, without compiling) in its own process on a free loopback port, and
 * waits for /api/health. `stop()` sends SIGTERM and waits for the exit;
 * `output()` is its standard output so far.
 * `cwd`: the project's root, or a copy of its sources.
 */
export async function startSourceServer(env: Record<string, string>, cwd = root) {
  const port = freePort();
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", ...TEST_PASSWORD_HASH_ENV, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  // Read as it comes (a pipe nobody reads would block the server once full): `output()` is what it printed so far.
  let printed = "";
  void (async () => {
    for await (const chunk of proc.stdout) printed += new TextDecoder().decode(chunk);
  })();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    proc.kill("SIGTERM");
    return await proc.exited;
  };
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(50)) {
    if (proc.exitCode !== null) break;
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, port, proc, stop, output: () => printed };
  }
  proc.kill();
  throw new Error(`server did not start: ${await new Response(proc.stderr).text()}`);
}
