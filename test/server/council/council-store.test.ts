import { expect, test } from "bun:test";
import {
  addMember,
  councilVersion,
  findMember,
  getSettings,
  listMembers,
  setEnabled,
  setSynthesisers,
  UnknownMemberError,
  updateMember,
  updateSettings,
} from "../../../src/council/council.store.ts";
import { createTestApp } from "../../helpers/app.ts";

const now = new Date("2026-11-27T01:00:00Z");

test("a fresh installation's council is the spec's six, in display order, with today's synthesis order", async () => {
  const { db } = await createTestApp();
  const members = await listMembers(db);
  expect(members.map((m) => [m.builtinKey, m.name, m.provider, m.synthesisRank, m.vision, m.enabled])).toEqual([
    ["gpt4", "GPT-4", "openai", 2, true, true],
    ["claudeHaiku", "Claude 3 Haiku", "anthropic", 6, true, true],
    ["claudeOpus", "Claude Opus 4.1", "anthropic", 1, true, true],
    ["geminiPro", "Gemini Pro", "google", 3, true, true],
    ["mistralLarge", "Mistral Large", "mistral", 4, false, true],
    ["sonarPro", "Sonar Pro", "perplexity", 5, false, true],
  ]);
  expect(members.map((m) => m.specialty)[5]).toBe("Recherche web en temps réel, avec sources");
  // Left to the environment (MODEL_*, *_API_KEY, *_BASE_URL, AI_PRICE_*), as before the council was data.
  expect(members.every((m) => m.model === null && m.apiKeyEnc === null && m.baseUrl === null && m.priceInEur === null)).toBe(true);
  const settings = await getSettings(db);
  expect(settings.clarifierMemberId).toBe(members[1]!.id);
  expect(settings.peerReview).toBe(false);
});

test("an added member comes last and bumps the version", async () => {
  const { db } = await createTestApp();
  const before = await councilVersion(db);
  const added = await addMember(db, { name: "Llama local", provider: "openai-compatible", model: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" }, now);
  expect(added.position).toBe(7);
  expect(added.enabled).toBe(true);
  expect(added.synthesisRank).toBeNull();
  expect(await councilVersion(db)).toBe(before + 1);
  expect((await findMember(db, "Llama local"))?.model).toBe("llama3.1");
});

test("a name already taken is refused by the database and changes nothing", async () => {
  const { db } = await createTestApp();
  const before = await councilVersion(db);
  await expect(addMember(db, { name: "GPT-4", provider: "openai", model: "gpt-5" }, now)).rejects.toThrow();
  expect(await councilVersion(db)).toBe(before);
  expect((await listMembers(db)).length).toBe(6);
});

test("renaming and disabling a member are edits of its row", async () => {
  const { db } = await createTestApp();
  expect((await updateMember(db, "GPT-4", { name: "GPT-4o", model: "gpt-4o-2024-11-20" }, now))?.builtinKey).toBe("gpt4");
  expect(await findMember(db, "GPT-4")).toBeUndefined();
  expect((await setEnabled(db, "Sonar Pro", false, now))?.enabled).toBe(false);
  expect(await updateMember(db, "Personne", { name: "X" }, now)).toBeUndefined();
});

test("the synthesisers are set in order, every other member stops being one", async () => {
  const { db } = await createTestApp();
  await setSynthesisers(db, ["Mistral Large", "GPT-4"], now);
  const ranks = Object.fromEntries((await listMembers(db)).map((m) => [m.name, m.synthesisRank]));
  expect(ranks).toEqual({ "GPT-4": 2, "Claude 3 Haiku": null, "Claude Opus 4.1": null, "Gemini Pro": null, "Mistral Large": 1, "Sonar Pro": null });
});

test("an unknown synthesiser changes nothing", async () => {
  const { db } = await createTestApp();
  const before = await councilVersion(db);
  await expect(setSynthesisers(db, ["GPT-4", "Personne"], now)).rejects.toBeInstanceOf(UnknownMemberError);
  expect((await findMember(db, "Claude Opus 4.1"))?.synthesisRank).toBe(1);
  expect(await councilVersion(db)).toBe(before);
});

test("settings changes bump the version", async () => {
  const { db } = await createTestApp();
  const before = await councilVersion(db);
  const settings = await updateSettings(db, { peerReview: true });
  expect(settings.peerReview).toBe(true);
  expect(settings.version).toBe(before + 1);
});
