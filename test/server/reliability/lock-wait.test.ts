import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { startBinary, tempDir } from "../../helpers/binary.ts";

/**
 * A write lock held by another process: the server's writes give up after a
 * short wait and answer 503 in French well inside Docker's 5 s healthcheck,
 * while /api/health and reads answer at once (WAL readers never wait).
 */
setDefaultTimeout(60_000);
const root = join(import.meta.dir, "..", "..", "..");

let dir: ReturnType<typeof tempDir>;
let server: Awaited<ReturnType<typeof startBinary>>;
beforeAll(async () => {
  dir = tempDir("unisson-lock-");
  server = await startBinary({ DATA_DIR: dir.path, PUBLIC_URL: "http://localhost:3000", LOG_LEVEL: "warn" }, dir.path);
});
afterAll(async () => {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  dir.cleanup();
});

async function holdLock(ms: number) {
  const proc = Bun.spawn([process.execPath, join(root, "test/helpers/lock-holder.ts"), join(dir.path, "unisson.db"), String(ms)], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  if (!new TextDecoder().decode(value).includes("locked")) throw new Error(await new Response(proc.stderr).text());
  reader.releaseLock();
  return proc;
}

async function timed(path: string, init?: RequestInit) {
  const start = performance.now();
  const res = await fetch(`${server.url}${path}`, init);
  return { status: res.status, body: (await res.json()) as any, ms: performance.now() - start };
}

describe("a write lock held by another process", () => {
  test("a write answers 503 in French in under 5 s; /api/health and reads stay fast", async () => {
    const holder = await holdLock(8000);
    try {
      const register = timed("/api/auth/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "verrou@example.fr", password: "Nuage-Bleu-42", first_name: "Éva", last_name: "Verrou" }),
      });
      const health = await timed("/api/health");
      const read = await timed("/api/warmup");
      const write = await register;
      expect(write.status).toBe(503);
      expect(write.body).toEqual({
        detail: "La base de données est momentanément occupée par une autre opération. Veuillez réessayer dans quelques instants.",
      });
      expect(write.ms).toBeLessThan(5000);
      expect(health.status).toBe(200);
      expect(health.ms).toBeLessThan(2000);
      expect(read.status).toBe(200);
      expect(read.ms).toBeLessThan(2000);
    } finally {
      holder.kill();
      await holder.exited;
    }
    // Once the lock is gone, the same write goes through.
    const again = await timed("/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "verrou@example.fr", password: "Nuage-Bleu-42", first_name: "Éva", last_name: "Verrou" }),
    });
    expect(again.status).toBe(200);
  });
});
