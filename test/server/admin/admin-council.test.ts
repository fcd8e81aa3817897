import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listAudit } from "../../../src/admin/audit-log.ts";
import { startFakeProviders, type FakeProviders } from "../../fakes/ai/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

let fakes: FakeProviders;
beforeAll(() => {
  fakes = startFakeProviders();
});
afterAll(async () => await fakes.stop());

const SECRET = "sk-local-secret-key-9876wxyz";
/** What seals the keys: required on PostgreSQL, and on SQLite it keeps the key file out of the working folder. */
const SECRET_KEY = "une-clé-de-test-de-plus-de-32-caractères";

async function setup() {
  const t = await createTestApp({ env: { ...fakes.env, SECRET_KEY } });
  const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
  const as = (method: string, path: string, json?: unknown) => t.call(method, `/api/admin/council${path}`, { json, token: admin.token });
  /** A seventh member on the fake OpenAI server, as an operator would add an Ollama or a vLLM. */
  const local = (changes: Record<string, unknown> = {}) => ({
    name: "Llama local",
    provider: "openai-compatible",
    model: "llama3.1:8b",
    base_url: fakes.env.OPENAI_BASE_URL,
    api_key: SECRET,
    specialty: "Modèle auto-hébergé",
    price_in: 0,
    price_out: "0,5",
    ...changes,
  });
  const council = async () => (await as("GET", "")).body;
  return { ...t, admin, as, local, council };
}

describe("/api/admin/council access", () => {
  for (const [method, path] of [
    ["GET", ""],
    ["POST", "/members"],
    ["PATCH", "/members/GPT-4"],
    ["PUT", "/synthesisers"],
    ["PATCH", "/settings"],
    ["POST", "/members/GPT-4/test"],
  ] as const) {
    test(`${method} /api/admin/council${path}: 401 without a session, 403 for a regular user`, async () => {
      const { call, db, clock } = await createTestApp();
      expect((await call(method, `/api/admin/council${path}`, { json: {} })).status).toBe(401);
      const { token } = await makeUser(db, clock.now());
      const res = await call(method, `/api/admin/council${path}`, { json: {}, token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: "Accès refusé. Privilèges administrateur requis." });
    });
  }
});

describe("GET /api/admin/council", () => {
  test("a fresh installation's council is the spec's six, all enabled, with the synthesisers in order", async () => {
    const { council } = await setup();
    const body = await council();
    expect(body.members.map((m: { name: string }) => m.name)).toEqual([
      "GPT-4",
      "Claude 3 Haiku",
      "Claude Opus 4.1",
      "Gemini Pro",
      "Mistral Large",
      "Sonar Pro",
    ]);
    expect(body.members.every((m: { enabled: boolean }) => m.enabled)).toBe(true);
    expect(body.settings.synthesisers[0]).toBe("Claude Opus 4.1");
    expect(body.settings.peer_review).toBe(false);
    // A seeded member shows what it really uses: MODEL_GPT4's default, OPENAI_BASE_URL, the key of OPENAI_API_KEY masked.
    expect(body.members[0]).toMatchObject({
      provider: "openai",
      model: "gpt-4o",
      base_url: fakes.env.OPENAI_BASE_URL,
      api_key: `••••${fakes.env.OPENAI_API_KEY!.slice(-4)}`,
      api_key_source: "environment",
      status: { ok: null },
    });
  });
});

describe("POST /api/admin/council/members", () => {
  test("adds an openai-compatible member; its key comes back as its last 4 characters only", async () => {
    const { as, local, council } = await setup();
    const res = await as("POST", "/members", local());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Llama local",
      provider: "openai-compatible",
      enabled: true,
      price_out: 0.5,
      api_key: "••••wxyz",
      api_key_source: "stored",
    });
    const listed = (await council()).members.find((m: { name: string }) => m.name === "Llama local");
    expect(listed.api_key).toBe("••••wxyz");
    expect(JSON.stringify(await council())).not.toContain(SECRET);
  });

  test("the new member is in the model list of the next question, without a restart", async () => {
    const { as, local, call, admin } = await setup();
    await as("POST", "/members", local());
    const models = (await call("GET", "/api/unisson/models", { token: admin.token })).body.models;
    expect(models.map((m: { name: string }) => m.name)).toContain("Llama local");
  });

  test("the change is in the audit log with the admin who made it, the key masked", async () => {
    const { as, local, db, admin } = await setup();
    await as("POST", "/members", local());
    const [entry] = await listAudit(db, { last: 1 });
    expect(entry).toMatchObject({ action: "council.add", actor: `admin:${admin.user.id} ${admin.user.email}`, target: "Llama local" });
    expect(JSON.stringify(entry)).not.toContain(SECRET);
    expect(JSON.stringify(entry)).toContain("••••wxyz");
  });

  for (const [what, changes, status, detail] of [
    [
      "an unknown provider kind",
      { provider: "deepmind" },
      400,
      "Type de fournisseur inconnu : choisissez parmi openai, anthropic, google, mistral, perplexity, openai-compatible",
    ],
    ["a base URL that is not http(s)", { base_url: "ftp://example.org/v1" }, 400, "L'adresse du fournisseur doit être une URL http:// ou https://"],
    ["an openai-compatible member without a base URL", { base_url: "" }, 400, "Un serveur compatible OpenAI a besoin de son adresse (base URL)"],
    ["a negative price", { price_in: -1 }, 400, "Le prix d'entrée doit être un nombre positif ou nul (€ par million de jetons)"],
    ["a price that is not a number", { price_out: "gratuit" }, 400, "Le prix de sortie doit être un nombre positif ou nul (€ par million de jetons)"],
    ["a timeout out of bounds", { timeout_ms: 50 }, 400, "Le délai doit être un nombre entier de millisecondes entre 1000 et 600000"],
    ["a blank name", { name: "  " }, 400, "Le nom du modèle est requis"],
    ["a blank model id", { model: "" }, 400, "L'identifiant du modèle chez le fournisseur est requis"],
    ["a name already taken (whatever its case)", { name: "gpt-4" }, 409, "Un modèle s'appelle déjà « gpt-4 »"],
  ] as const) {
    test(`${what} is refused in French (${status}) and nothing is stored`, async () => {
      const { as, local, council } = await setup();
      const res = await as("POST", "/members", local(changes));
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ detail });
      expect((await council()).members).toHaveLength(6);
    });
  }

  test("a ninth enabled member is refused: the council counts 2 to 8", async () => {
    const { as, local } = await setup();
    expect((await as("POST", "/members", local({ name: "Septième" }))).status).toBe(201);
    expect((await as("POST", "/members", local({ name: "Huitième" }))).status).toBe(201);
    const res = await as("POST", "/members", local({ name: "Neuvième" }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Le conseil ne peut pas compter plus de 8 modèles actifs" });
  });
});

describe("PATCH /api/admin/council/members/:name", () => {
  test("renames a member: the panel shows the new name", async () => {
    const { as, council } = await setup();
    const res = await as("PATCH", "/members/GPT-4", { name: "GPT-4o", model: "gpt-4o" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "GPT-4o", model: "gpt-4o" });
    expect((await council()).members.map((m: { name: string }) => m.name)).toContain("GPT-4o");
  });

  test("disables a member, then enables it again", async () => {
    const { as, council } = await setup();
    expect((await as("PATCH", "/members/Sonar Pro", { enabled: false })).body.enabled).toBe(false);
    expect((await council()).members.find((m: { name: string }) => m.name === "Sonar Pro").enabled).toBe(false);
    expect((await as("PATCH", "/members/Sonar Pro", { enabled: true })).body.enabled).toBe(true);
  });

  test("disabling down to one enabled member is refused in French", async () => {
    const { as } = await setup();
    for (const name of ["GPT-4", "Claude 3 Haiku", "Gemini Pro", "Mistral Large"]) {
      expect((await as("PATCH", `/members/${encodeURIComponent(name)}`, { enabled: false })).status).toBe(200);
    }
    const res = await as("PATCH", "/members/Sonar Pro", { enabled: false });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Le conseil doit garder au moins 2 modèles actifs" });
  });

  test("an unknown member answers 404 in French", async () => {
    const { as } = await setup();
    const res = await as("PATCH", "/members/Inconnu", { enabled: false });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Aucun modèle ne s'appelle « Inconnu »" });
  });

  test("a rename onto another member's name answers 409", async () => {
    const { as } = await setup();
    const res = await as("PATCH", "/members/GPT-4", { name: "Gemini Pro" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: "Un modèle s'appelle déjà « Gemini Pro »" });
  });

  test("an empty change is refused", async () => {
    const { as } = await setup();
    const res = await as("PATCH", "/members/GPT-4", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Rien à modifier : indiquez au moins un champ" });
  });

  test("a new key replaces the old one, shown by its last 4 characters; null clears it", async () => {
    const { as, local } = await setup();
    await as("POST", "/members", local());
    expect((await as("PATCH", "/members/Llama local", { api_key: "sk-another-key-0000abcd" })).body.api_key).toBe("••••abcd");
    expect((await as("PATCH", "/members/Llama local", { api_key: null })).body.api_key).toBeNull();
  });
});

describe("PUT /api/admin/council/synthesisers", () => {
  test("sets the order; the panel shows it and each member's rank", async () => {
    const { as, council } = await setup();
    const res = await as("PUT", "/synthesisers", { names: ["Mistral Large", "GPT-4"] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ synthesisers: ["Mistral Large", "GPT-4"] });
    const body = await council();
    expect(body.settings.synthesisers).toEqual(["Mistral Large", "GPT-4"]);
    expect(body.members.find((m: { name: string }) => m.name === "Claude Opus 4.1").synthesis_rank).toBeNull();
    expect(body.members.find((m: { name: string }) => m.name === "GPT-4").synthesis_rank).toBe(2);
  });

  test("an unknown name (404), a disabled member (400), an empty list or a name twice (400) are refused in French", async () => {
    const { as } = await setup();
    expect((await as("PUT", "/synthesisers", { names: ["Inconnu"] })).body).toEqual({ detail: "Aucun modèle ne s'appelle « Inconnu »" });
    await as("PATCH", "/members/GPT-4", { enabled: false });
    const disabled = await as("PUT", "/synthesisers", { names: ["GPT-4"] });
    expect(disabled.status).toBe(400);
    expect(disabled.body).toEqual({ detail: "« GPT-4 » est désactivé : il ne peut pas écrire la synthèse" });
    expect((await as("PUT", "/synthesisers", { names: [] })).body).toEqual({ detail: "Indiquez au moins un synthétiseur" });
    expect((await as("PUT", "/synthesisers", { names: ["Gemini Pro", "Gemini Pro"] })).body).toEqual({
      detail: "Le modèle « Gemini Pro » figure deux fois parmi les synthétiseurs",
    });
  });

  test("disabling the last enabled synthesiser is refused", async () => {
    const { as } = await setup();
    await as("PUT", "/synthesisers", { names: ["Gemini Pro"] });
    const res = await as("PATCH", "/members/Gemini Pro", { enabled: false });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "« Gemini Pro » est le dernier synthétiseur actif : choisissez-en un autre avant de le désactiver" });
  });
});

describe("PATCH /api/admin/council/settings", () => {
  test("turns the peer review on, audited", async () => {
    const { as, council, db } = await setup();
    const res = await as("PATCH", "/settings", { peer_review: true });
    expect(res.status).toBe(200);
    expect((await council()).settings.peer_review).toBe(true);
    expect((await listAudit(db, { last: 1 }))[0]).toMatchObject({ action: "council.settings", changes: { peer_review: [false, true] } });
  });

  test("chooses the clarifier by name", async () => {
    const { as, council } = await setup();
    const res = await as("PATCH", "/settings", { clarifier: "Mistral Large" });
    expect(res.status).toBe(200);
    expect(res.body.clarifier).toBe("Mistral Large");
    expect((await council()).settings.clarifier).toBe("Mistral Large");
  });

  test("an unknown clarifier is refused", async () => {
    const { as } = await setup();
    const res = await as("PATCH", "/settings", { clarifier: "Inconnu" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Aucun modèle ne s'appelle « Inconnu »" });
  });
});

describe("PATCH /api/admin/council/settings: the moderation model", () => {
  test("a fresh installation uses the default moderation model: GET shows null", async () => {
    const { council } = await setup();
    expect((await council()).settings.moderation_model).toBeNull();
  });

  test("chooses the moderation model (trimmed): GET returns it, the audit logs before and after", async () => {
    const { as, council, db, admin } = await setup();
    const res = await as("PATCH", "/settings", { moderation_model: "  text-moderation-007 " });
    expect(res.status).toBe(200);
    expect(res.body.moderation_model).toBe("text-moderation-007");
    expect((await council()).settings.moderation_model).toBe("text-moderation-007");
    expect((await listAudit(db, { last: 1 }))[0]).toMatchObject({
      action: "council.settings",
      actor: `admin:${admin.user.id} ${admin.user.email}`,
      changes: { moderation_model: [null, "text-moderation-007"] },
    });
  });

  test("the next question is moderated with the chosen model, then with the default again after null", async () => {
    const { as, call, admin } = await setup();
    const ask = async () => {
      const res = await call("POST", "/api/unisson/chat", { token: admin.token, json: { message: "Quelle est la capitale de la France ?" } });
      expect(res.status).toBe(200);
      return fakes.control.moderations.at(-1)?.model;
    };
    expect(await ask()).toBe("omni-moderation-latest");
    expect((await as("PATCH", "/settings", { moderation_model: "omni-moderation-2024-09-26" })).status).toBe(200);
    expect(await ask()).toBe("omni-moderation-2024-09-26");
    const back = await as("PATCH", "/settings", { moderation_model: null });
    expect(back.body.moderation_model).toBeNull();
    expect(await ask()).toBe("omni-moderation-latest");
  });

  for (const [what, value] of [
    ["an empty id", "   "],
    ["an id with a space", "omni moderation"],
    ["an id with a slash", "../v1/chat"],
    ["an id over 100 characters", "m".repeat(101)],
    ["a number", 7],
  ] as const) {
    test(`${what} is refused in French (400) and nothing changes`, async () => {
      const { as, council } = await setup();
      const res = await as("PATCH", "/settings", { moderation_model: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        detail: "Le modèle de modération doit être un identifiant de modèle OpenAI (1 à 100 caractères : lettres, chiffres, . _ : -)",
      });
      expect((await council()).settings.moderation_model).toBeNull();
    });
  }

  test("an id of exactly 100 characters is accepted", async () => {
    const { as } = await setup();
    const res = await as("PATCH", "/settings", { moderation_model: "m".repeat(100) });
    expect(res.status).toBe(200);
  });
});

describe("POST /api/admin/council/members/:name/test", () => {
  test("one real call through the member's provider: latency and first words; the status shows it", async () => {
    const { as, local, council } = await setup();
    await as("POST", "/members", local());
    const res = await as("POST", "/members/Llama local/test");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, name: "Llama local", first_words: "pong" });
    expect(res.body.latency_ms).toBeGreaterThanOrEqual(0);
    const call = fakes.control.calls.findLast((c) => c.model === "llama3.1:8b");
    expect(call?.provider).toBe("openai");
    const status = (await council()).members.find((m: { name: string }) => m.name === "Llama local").status;
    expect(status).toMatchObject({ ok: true, error: null });
    expect(status.checked_at).not.toBeNull();
  });

  test("a provider's refusal is told in French, not as an HTTP error", async () => {
    const { as, local } = await setup();
    await as("POST", "/members", local({ base_url: "http://127.0.0.1:9/v1" }));
    const res = await as("POST", "/members/Llama local/test");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, name: "Llama local" });
    expect(res.body.error).toMatch(/connexion|délai|erreur/i);
  });

  test("an unknown member answers 404", async () => {
    const { as } = await setup();
    expect((await as("POST", "/members/Inconnu/test")).status).toBe(404);
  });
});
