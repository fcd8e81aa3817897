import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listAudit } from "../../src/admin/audit-log.ts";
import { startFakeProviders, type FakeProviders } from "../fakes/ai/index.ts";
import { createTestApp, TEST_SECRET_KEY } from "../helpers/app.ts";
import { dbPath, runCli, runCliAsync, useDataDirs, withDb } from "../helpers/cli.ts";
import { makeUser } from "../helpers/fixtures.ts";

const dataDir = useDataDirs();
let fakes: FakeProviders;
beforeAll(() => {
  fakes = startFakeProviders();
});
afterAll(async () => await fakes.stop());

const SECRET = "sk-cli-secret-key-5555qrst";
const addLocal = (dir: string, extra: string[] = [], env: Record<string, string> = {}) =>
  runCli(
    [
      "council",
      "add",
      "--name",
      "Llama local",
      "--provider",
      "openai-compatible",
      "--model",
      "llama3.1:8b",
      "--base-url",
      fakes.env.OPENAI_BASE_URL!,
      ...extra,
    ],
    dir,
    env,
  );

describe("unisson council", () => {
  test("`council list --json` gives the six members, keys masked", async () => {
    const dir = await dataDir();
    const r = runCli(["council", "list", "--json"], dir, { OPENAI_API_KEY: "sk-env-openai-key-1111abcd" });
    expect(r.code).toBe(0);
    const members = r.json();
    expect(members.map((m: { name: string }) => m.name)).toEqual(["GPT-4", "Claude 3 Haiku", "Claude Opus 4.1", "Gemini Pro", "Mistral Large", "Sonar Pro"]);
    expect(members[0]).toMatchObject({ provider: "openai", enabled: true, vision: true, api_key: "••••abcd" });
    expect(r.stdout).not.toContain("sk-env-openai-key");
  });

  test("`council add` stores the key sealed: masked in list, absent from the database file, audited without it", async () => {
    const dir = await dataDir();
    const add = addLocal(dir, ["--api-key", SECRET, "--price-in", "0", "--price-out", "0,4", "--specialty", "Modèle maison"]);
    expect(add.code).toBe(0);
    expect(add.stdout).toContain("Modèle ajouté au conseil : Llama local");
    expect(add.stdout).toContain("••••qrst");
    expect(add.stdout).not.toContain(SECRET);
    const listed = runCli(["council", "list", "--json"], dir).json();
    expect(listed.find((m: { name: string }) => m.name === "Llama local")).toMatchObject({ api_key: "••••qrst", price_out: 0.4, enabled: true });
    expect(readFileSync(dbPath(dir)).includes(Buffer.from(SECRET))).toBe(false);
    const [entry] = await withDb(dir, async (db) => await listAudit(db, { last: 1 }));
    expect(entry).toMatchObject({ action: "council.add", actor: expect.stringMatching(/^cli/), target: "Llama local" });
    expect(JSON.stringify(entry)).not.toContain(SECRET);
  });

  test("bad usage exits 2 with a French line: an unknown provider kind, a missing --model", async () => {
    const dir = await dataDir();
    const kind = runCli(["council", "add", "--name", "X", "--provider", "deepmind", "--model", "m"], dir);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain("Type de fournisseur inconnu : choisissez parmi openai, anthropic, google, mistral, perplexity, openai-compatible.");
    expect(runCli(["council", "add", "--name", "X", "--provider", "openai"], dir).code).toBe(2);
  });

  test("invalid settings are refused (exit 1) in French and nothing changes", async () => {
    const dir = await dataDir();
    const url = addLocal(dir, ["--base-url", "file:///etc/passwd"]);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain("L'adresse du fournisseur doit être une URL http:// ou https://");
    const price = addLocal(dir, ["--price-in", "-2"]);
    expect(price.code).toBe(1);
    expect(price.stderr).toContain("Le prix d'entrée doit être un nombre positif ou nul");
    const taken = runCli(["council", "set", "GPT-4", "--name", "Sonar Pro"], dir);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("Un modèle s'appelle déjà « Sonar Pro »");
    expect(runCli(["council", "list", "--json"], dir).json()).toHaveLength(6);
  });

  test("a key file that cannot be read refuses `council add --api-key` with its French line (exit 1), nothing stored", async () => {
    const dir = await dataDir();
    writeFileSync(join(dir, "secret.key"), "pas une clé", { mode: 0o600 });
    const r = addLocal(dir, ["--api-key", SECRET]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `Le fichier de clé ${join(dir, "secret.key")} est illisible (32 octets en base64 attendus) : restaurez-le ou définissez SECRET_KEY.`,
    );
    expect(runCli(["council", "list", "--json"], dir).json()).toHaveLength(6);
  });

  test("`council list` shows a key secret.key no longer opens as « illisible », with the French reason the member is not called", async () => {
    const dir = await dataDir();
    expect(addLocal(dir, ["--api-key", SECRET]).code).toBe(0);
    // secret.key lost and made again: the stored key was sealed with the old one.
    writeFileSync(join(dir, "secret.key"), randomBytes(32).toString("base64"), { mode: 0o600 });
    const r = runCli(["council", "list"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("••••qrst");
    expect(r.stdout).toContain("illisible");
    expect(r.stdout).toContain(
      "Llama local : Indisponible : sa clé d'API enregistrée est illisible (chiffrée avec une autre SECRET_KEY ou un autre fichier secret.key). Il n'est appelé avec aucune autre clé : saisissez sa clé de nouveau.",
    );
  });

  test("`council set --base-url` clears the stored key and says so in French", async () => {
    const dir = await dataDir();
    expect(addLocal(dir, ["--api-key", SECRET]).code).toBe(0);
    const r = runCli(["council", "set", "Llama local", "--base-url", "http://127.0.0.1:9/v1"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "L'adresse a changé : la clé d'API enregistrée est effacée (elle n'est jamais envoyée à une autre adresse). Donnez celle de la nouvelle adresse avec --api-key.",
    );
    expect(
      runCli(["council", "list", "--json"], dir)
        .json()
        .find((m: { name: string }) => m.name === "Llama local"),
    ).toMatchObject({ api_key: null });
  });

  test("`council disable` refuses to leave fewer than 2 enabled members; `enable` brings one back", async () => {
    const dir = await dataDir();
    for (const name of ["GPT-4", "Claude 3 Haiku", "Gemini Pro", "Mistral Large"]) expect(runCli(["council", "disable", name], dir).code).toBe(0);
    const last = runCli(["council", "disable", "Sonar Pro"], dir);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain("Le conseil doit garder au moins 2 modèles actifs");
    const on = runCli(["council", "enable", "GPT-4"], dir);
    expect(on.code).toBe(0);
    expect(on.stdout).toContain("Modèle activé : GPT-4");
  });

  test("`council set` renames and changes the model; an unknown name exits 1", async () => {
    const dir = await dataDir();
    const set = runCli(["council", "set", "GPT-4", "--name", "GPT-4o", "--model", "gpt-4o", "--no-vision", "--json"], dir);
    expect(set.code).toBe(0);
    expect(set.json()).toMatchObject({ name: "GPT-4o", model: "gpt-4o", vision: false });
    const unknown = runCli(["council", "set", "Inconnu", "--model", "x"], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Aucun modèle ne s'appelle « Inconnu »");
  });

  test('`council synthesisers "a,b"` sets the order; a disabled member is refused', async () => {
    const dir = await dataDir();
    const r = runCli(["council", "synthesisers", "Mistral Large, GPT-4", "--json"], dir);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ synthesisers: ["Mistral Large", "GPT-4"] });
    expect(runCli(["council", "disable", "Sonar Pro"], dir).code).toBe(0);
    const refused = runCli(["council", "synthesisers", "Sonar Pro"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("« Sonar Pro » est désactivé : il ne peut pas écrire la synthèse");
  });

  test("`council test` makes one real call: latency and first words, or the provider's error (exit 1)", async () => {
    const dir = await dataDir();
    expect(addLocal(dir, ["--api-key", SECRET]).code).toBe(0);
    const ok = await runCliAsync(["council", "test", "Llama local"], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Llama local répond en \d+ ms : « pong »/);
    expect(runCli(["council", "set", "Llama local", "--base-url", "http://127.0.0.1:9/v1"], dir).code).toBe(0);
    const ko = await runCliAsync(["council", "test", "Llama local"], dir);
    expect(ko.code).toBe(1);
    expect(ko.stderr).toContain("Llama local ne répond pas : ");
  });

  test("a change made by the CLI (another process) shows on a running server's panel at once", async () => {
    const dir = await dataDir();
    const server = await createTestApp({ env: { ...fakes.env, DATABASE_PATH: dbPath(dir), DATA_DIR: dir } });
    const admin = await makeUser(server.db, server.clock.now(), { isAdmin: true });
    // The CLI seals with the server's SECRET_KEY (else the server could not open the key, and shows it unreadable).
    expect(addLocal(dir, ["--api-key", SECRET], { SECRET_KEY: TEST_SECRET_KEY }).code).toBe(0);
    const panel = await server.call("GET", "/api/admin/council", { token: admin.token });
    expect(panel.body.members.find((m: { name: string }) => m.name === "Llama local")).toMatchObject({ api_key: "••••qrst" });
  });

  test("a change made by the CLI reaches a running server's next question (its model list) within 5 s", async () => {
    const dir = await dataDir();
    const server = await createTestApp({ env: { ...fakes.env, DATABASE_PATH: dbPath(dir), DATA_DIR: dir } });
    const admin = await makeUser(server.db, server.clock.now(), { isAdmin: true });
    expect(addLocal(dir, ["--api-key", SECRET]).code).toBe(0);
    const deadline = Date.now() + 10_000;
    let names: string[] = [];
    while (Date.now() < deadline) {
      names = (await server.call("GET", "/api/unisson/models", { token: admin.token })).body.models.map((m: { name: string }) => m.name);
      if (names.includes("Llama local")) break;
      await Bun.sleep(250);
    }
    expect(names).toContain("Llama local");
  });

  test("`council settings` with no option prints the current settings (text and --json)", async () => {
    const dir = await dataDir();
    const text = runCli(["council", "settings"], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Délibération : désactivée");
    expect(text.stdout).toContain("Clarification : Claude 3 Haiku");
    expect(text.stdout).toContain("Modération : omni-moderation-latest (par défaut)");
    const json = runCli(["council", "settings", "--json"], dir);
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({ peer_review: false, clarifier: "Claude 3 Haiku", moderation_model: null });
  });

  test("`council settings` changes the peer review, the clarifier and the moderation model, audited as cli", async () => {
    const dir = await dataDir();
    const r = runCli(
      ["council", "settings", "--peer-review", "on", "--clarifier", "Mistral Large", "--moderation-model", "text-moderation-007", "--json"],
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ peer_review: true, clarifier: "Mistral Large", moderation_model: "text-moderation-007" });
    expect(runCli(["council", "settings", "--json"], dir).json()).toMatchObject({ peer_review: true, moderation_model: "text-moderation-007" });
    const [entry] = await withDb(dir, async (db) => await listAudit(db, { last: 1 }));
    expect(entry).toMatchObject({
      action: "council.settings",
      actor: expect.stringMatching(/^cli:/),
      changes: { peer_review: [false, true], clarifier: ["Claude 3 Haiku", "Mistral Large"], moderation_model: [null, "text-moderation-007"] },
    });
  });

  test("`council settings --moderation-model default` goes back to omni-moderation-latest", async () => {
    const dir = await dataDir();
    expect(runCli(["council", "settings", "--moderation-model", "omni-moderation-2024-09-26"], dir).code).toBe(0);
    const r = runCli(["council", "settings", "--moderation-model", "default"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Réglages du conseil enregistrés.");
    expect(r.stdout).toContain("Modération : omni-moderation-latest (par défaut)");
    expect(runCli(["council", "settings", "--json"], dir).json().moderation_model).toBeNull();
  });

  test("`council settings` refuses (exit 1) an invalid moderation model or an unknown clarifier in French, nothing changes", async () => {
    const dir = await dataDir();
    const model = runCli(["council", "settings", "--moderation-model", "omni moderation"], dir);
    expect(model.code).toBe(1);
    expect(model.stderr).toContain("Le modèle de modération doit être un identifiant de modèle OpenAI (1 à 100 caractères : lettres, chiffres, . _ : -)");
    const clarifier = runCli(["council", "settings", "--clarifier", "Inconnu", "--peer-review", "on"], dir);
    expect(clarifier.code).toBe(1);
    expect(clarifier.stderr).toContain("Aucun modèle ne s'appelle « Inconnu »");
    expect(runCli(["council", "settings", "--json"], dir).json()).toMatchObject({ peer_review: false, clarifier: "Claude 3 Haiku", moderation_model: null });
  });

  test("`council settings --peer-review peut-être` is bad usage (exit 2) with a French line", async () => {
    const dir = await dataDir();
    const r = runCli(["council", "settings", "--peer-review", "peut-être"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Valeur attendue : on ou off.");
  });

  test("a moderation model set by the CLI (another process) is the one a running server's next question uses", async () => {
    const dir = await dataDir();
    const server = await createTestApp({ env: { ...fakes.env, DATABASE_PATH: dbPath(dir), DATA_DIR: dir } });
    const user = await makeUser(server.db, server.clock.now());
    const ask = async () => {
      const res = await server.call("POST", "/api/unisson/chat", { token: user.token, json: { message: "Quelle est la capitale de la France ?" } });
      expect(res.status).toBe(200);
      return fakes.control.moderations.at(-1)?.model;
    };
    // The server has read the council once (its snapshot), before the CLI changes it.
    expect(await ask()).toBe("omni-moderation-latest");
    expect(runCli(["council", "settings", "--moderation-model", "omni-moderation-2024-09-26"], dir).code).toBe(0);
    expect(await ask()).toBe("omni-moderation-2024-09-26");
  });
});
