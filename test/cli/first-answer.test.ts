import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeProviders } from "../fakes/ai/index.ts";
import { runCli, useDataDirs } from "../helpers/cli.ts";
import { startSourceServer } from "../helpers/source-server.ts";

/**
 * The README's « First real answer » (issue 46), followed as a new operator
 * would, with one OpenAI key and a local OpenAI-compatible server (Ollama,
 * llama.cpp): here the fake OpenAI server speaks for both, on the loopback.
 * Before, the README gave no way to an answer without two paid keys.
 */
const dataDir = useDataDirs();
const OLLAMA = "http://127.0.0.1:11434/v1";

/** The `./unisson …` lines of the README's « First real answer » block, as argument lists (quotes as a shell reads them). */
function readmeCommands(): string[][] {
  const readme = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");
  const section = readme.split("### First real answer")[1] ?? "";
  const block = section.split("```sh\n")[1]?.split("```")[0] ?? "";
  return block
    .split("\n")
    .filter((l) => l.startsWith("./unisson "))
    .map((l) => [...l.replace(/\s+#.*$/, "").matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!).slice(1));
}
const fakes = startFakeProviders();
afterAll(() => fakes.stop());

describe("README: a first real answer with one provider key and a local model", () => {
  test("council add of a local OpenAI-compatible model, then a question through /v1 gets the consolidated answer", async () => {
    const dir = await dataDir();
    // One provider key: only OpenAI's variables (the fake's address as OPENAI_BASE_URL).
    const env = { OPENAI_API_KEY: fakes.env.OPENAI_API_KEY ?? "", OPENAI_BASE_URL: fakes.env.OPENAI_BASE_URL ?? "" };
    // The README's commands, as written, but for the local server's address (Ollama's, there) and `serve`, started below.
    const commands = readmeCommands();
    expect(commands.map((c) => c.slice(0, 2).join(" "))).toEqual(["council add", "users create", "serve"]);
    for (const command of commands.slice(0, -1)) {
      const r = runCli(
        command.map((w) => w.replace(OLLAMA, env.OPENAI_BASE_URL)),
        dir,
        env,
      );
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
    }
    const email = commands[1]![commands[1]!.indexOf("--email") + 1]!;
    const password = commands[1]![commands[1]!.indexOf("--password") + 1]!;

    const server = await startSourceServer({ DATA_DIR: dir, ...env });
    try {
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email, password }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const created = await fetch(`${server.url}/api/auth/api-keys`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, origin: server.url },
        body: JSON.stringify({ name: "premier essai" }),
      });
      expect(created.status).toBe(201);
      const { secret } = (await created.json()) as { secret: string };

      const asked = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
        body: JSON.stringify({ model: "unisson", messages: [{ role: "user", content: "Quelle est la capitale de la France ?" }] }),
      });
      const body = (await asked.json()) as { choices?: Array<{ message: { content: string } }>; error?: unknown };
      expect(body.error).toBeUndefined();
      expect(asked.status).toBe(200);
      expect(body.choices![0]!.message.content.length).toBeGreaterThan(0);
      // Both members answered: the local one too, by its own model id.
      const models = fakes.control.calls.map((c) => c.model);
      expect(models).toContain("llama3.2");
    } finally {
      await server.stop();
    }
  });
});
