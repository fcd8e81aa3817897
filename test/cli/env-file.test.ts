import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, runCliAsync, useDataDirs } from "../helpers/cli.ts";
import { startSourceServer } from "../helpers/source-server.ts";

/**
 * The data folder's `.env` (README, "Configuration"): read by the server and
 * by every CLI command on that folder, under the environment, so the CLI run
 * beside a server has the server's settings (issue 36: reset links pointed at
 * http://localhost:3000 when PUBLIC_URL was given to the server only).
 */
const dataDir = useDataDirs();

describe("the data folder's .env", () => {
  test("`users reset-password` run beside a server prints a link to the server's PUBLIC_URL", async () => {
    const dir = await dataDir();
    writeFileSync(join(dir, ".env"), "# the server's settings\nPUBLIC_URL=https://unisson.example.fr\n", { mode: 0o600 });
    const server = await startSourceServer({ DATA_DIR: dir, LOG_LEVEL: "info", LOG_FORMAT: "json" });
    try {
      const readyLine = () =>
        server
          .output()
          .split("\n")
          .find((l) => l.includes("Unisson prêt"));
      // The line may reach the pipe just after /api/health first answers.
      for (let i = 0; i < 100 && !readyLine(); i++) await Bun.sleep(50);
      const ready = readyLine();
      expect(JSON.parse(ready!).public_url).toBe("https://unisson.example.fr");
      expect((await runCliAsync(["users", "create", "--email", "lea@example.fr", "--first-name", "Léa", "--last-name", "Martin"], dir)).code).toBe(0);
      const r = await runCliAsync(["users", "reset-password", "lea@example.fr", "--json"], dir);
      expect(r.code).toBe(0);
      expect(r.json().url).toStartWith("https://unisson.example.fr/reset-password?token=");
    } finally {
      await server.stop();
    }
  });

  test("a variable of the environment wins over the file", async () => {
    const dir = await dataDir();
    writeFileSync(join(dir, ".env"), "PUBLIC_URL=https://fichier.example.fr\n");
    runCli(["users", "create", "--email", "lea@example.fr", "--first-name", "Léa", "--last-name", "Martin"], dir);
    const r = runCli(["users", "reset-password", "lea@example.fr", "--json"], dir, { PUBLIC_URL: "https://env.example.fr" });
    expect(r.json().url).toStartWith("https://env.example.fr/reset-password?token=");
  });

  test("a bad value in the file stops the command with the usual line naming the variable", async () => {
    const dir = await dataDir();
    writeFileSync(join(dir, ".env"), "PORT=abc\n");
    const r = runCli(["users", "list"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Configuration invalide : PORT="abc" doit être un numéro de port (1-65535)');
  });
});
