import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { findMember, updateMember } from "../../../src/council/council.store.ts";
import { loadSecretKey, sealedKey } from "../../../src/council/secret-box.ts";
import { FakeControl } from "../../fakes/ai/index.ts";
import { startOpenAiFake } from "../../fakes/ai/openai.fake.ts";
import type { FakeServer } from "../../fakes/ai/serve.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { askReady, type ChatApp, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { addLlama, LLAMA } from "./council.helpers.ts";

/**
 * Where a council member's key may go (issues 44 and 48): a stored key this
 * server cannot open leaves its member uncalled, never called with the
 * operator's *_API_KEY instead; a new base URL drops the stored key; and an
 * *_API_KEY only ever reaches its own provider's address.
 */
const fakes = useFakeProviders();

/** A second OpenAI-speaking server: "another address", with its own record of the calls and keys it received. */
const elsewhere = new FakeControl();
let other: FakeServer;
beforeAll(() => {
  other = startOpenAiFake(elsewhere);
});
afterAll(async () => await other.stop());

const KEY_UNREADABLE =
  "Indisponible : sa clé d'API enregistrée est illisible (chiffrée avec une autre SECRET_KEY ou un autre fichier secret.key). Il n'est appelé avec aucune autre clé : saisissez sa clé de nouveau.";
const ENV_KEY_ELSEWHERE =
  "Indisponible : OPENAI_API_KEY n'est envoyée qu'à l'adresse de son fournisseur (OPENAI_BASE_URL ou l'adresse par défaut), pas à celle de ce modèle. Saisissez une clé pour cette adresse.";

async function admin(t: ChatApp) {
  const { token } = await makeUser(t.db, t.clock.now(), { email: "admin@example.fr", isAdmin: true });
  return (method: string, path: string, json?: unknown) => t.call(method, `/api/admin/council${path}`, { json, token });
}

/** GPT-4's key as a server with another SECRET_KEY sealed it (the key changed, or secret.key was lost since). */
async function sealedElsewhere(t: ChatApp) {
  const foreign = loadSecretKey({ secretKey: "une-autre-clé-secrète-de-plus-de-32-caractères", dataDir: "" });
  await updateMember(t.db, "GPT-4", sealedKey(foreign, "sk-openai-member-key-4242"), t.clock.now());
}

const memberView = async (as: Awaited<ReturnType<typeof admin>>, name: string) =>
  (await as("GET", "")).body.members.find((m: { name: string }) => m.name === name);

describe("a member whose stored key cannot be opened", () => {
  test("is never called, not even with the operator's OPENAI_API_KEY", async () => {
    const t = await chatApp(fakes());
    await sealedElsewhere(t);
    const id = await askReady(t);
    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(res.status).toBe(200);
    expect(res.body.available_ais).not.toContain("GPT-4");
    expect(fakes().control.calls.filter((c) => c.model === "gpt4")).toEqual([]);
  });

  test("the answer names it as not asked for its unusable key, never as a key the operator did not configure", async () => {
    const t = await chatApp(fakes());
    await sealedElsewhere(t);
    const id = await askReady(t);
    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(res.body.final_response).toContain("GPT-4 (non interrogé : sa clé d'API est inutilisable, l'administrateur doit la saisir de nouveau)");
    expect(res.body.final_response).not.toContain("clé API non configurée");
  });

  test("the panel shows no last 4 characters, the key as unreadable and the French reason as its status", async () => {
    const t = await chatApp(fakes());
    await sealedElsewhere(t);
    const gpt4 = await memberView(await admin(t), "GPT-4");
    expect(gpt4).toMatchObject({ api_key: null, api_key_source: "unreadable", status: { ok: false, error: KEY_UNREADABLE } });
  });

  test("the public status shows it unavailable", async () => {
    const t = await chatApp(fakes());
    await sealedElsewhere(t);
    const status = (await t.call("GET", "/api/unisson/status")).body;
    expect(status.ai_status).toContainEqual({ name: "GPT-4", available: false });
  });

  test("« Tester » makes no call and answers the French reason", async () => {
    const t = await chatApp(fakes());
    await sealedElsewhere(t);
    const res = await (await admin(t))("POST", "/members/GPT-4/test");
    expect(res.body).toMatchObject({ ok: false, error: KEY_UNREADABLE });
    expect(fakes().control.calls).toEqual([]);
  });
});

describe("changing a member's base URL", () => {
  test("clears its stored key: the new address never receives it", async () => {
    const t = await chatApp(fakes());
    await addLlama(t, fakes());
    const as = await admin(t);
    const res = await as("PATCH", `/members/${encodeURIComponent(LLAMA.name)}`, { base_url: `${other.url}/v1` });
    expect(res.body).toMatchObject({ api_key: null, api_key_source: null, key_cleared: true });
    expect((await findMember(t.db, LLAMA.name))!.apiKeyEnc).toBeNull();
    await as("POST", `/members/${encodeURIComponent(LLAMA.name)}/test`);
    expect(elsewhere.calls.map((c) => c.apiKey)).not.toContain(LLAMA.key);
    expect(elsewhere.calls).toHaveLength(1);
    elsewhere.reset();
  });

  test("keeps the key the same change gives", async () => {
    const t = await chatApp(fakes());
    await addLlama(t, fakes());
    const res = await (await admin(t))("PATCH", `/members/${encodeURIComponent(LLAMA.name)}`, {
      base_url: `${other.url}/v1`,
      api_key: "sk-new-address-key-5678",
    });
    expect(res.body).toMatchObject({ api_key: "••••5678", api_key_source: "stored", key_cleared: false });
  });

  test("a seeded member sent elsewhere does not take the operator's OPENAI_API_KEY there: no call, the French reason", async () => {
    const t = await chatApp(fakes());
    const as = await admin(t);
    const res = await as("PATCH", "/members/GPT-4", { base_url: `${other.url}/v1` });
    expect(res.body).toMatchObject({ api_key: null, api_key_source: null, status: { ok: false, error: ENV_KEY_ELSEWHERE } });
    const test = await as("POST", "/members/GPT-4/test");
    expect(test.body).toMatchObject({ ok: false, error: ENV_KEY_ELSEWHERE });
    const id = await askReady(t);
    await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(elsewhere.calls).toEqual([]);
  });
});
