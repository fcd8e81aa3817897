import { describe, expect, test } from "bun:test";
import { ANSWER_MAX_TOKENS } from "../../../src/chat/prompts.ts";
import { askReady, type ChatApp, chatApp, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const process = (t: ChatApp, id: number) => t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
const MARK = "\n\n*Réponse abrégée : elle dépassait la longueur demandée aux modèles.*";
/** French runs at about four characters a token (src/chat/answer-length.ts). */
const CAP_CHARS = ANSWER_MAX_TOKENS * 4;

/** The answer of `name` as stored with the conversation, read back through the API. */
async function storedAnswerOf(t: ChatApp, id: number, name: string): Promise<string> {
  const conv = await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token });
  const models = conv.body.messages.at(-1).result_data.models as Array<{ name: string; answer: string | null }>;
  return models.find((m) => m.name === name)!.answer!;
}

describe("a council member's answer is stored within the answer cap", () => {
  test("a model that ignores the token cap (200 KB): its answer is cut at a sentence within the cap, and marked", async () => {
    const t = await chatApp(fakes());
    const sentences = Array.from({ length: 4_000 }, (_, i) => `La phrase numéro ${i} dit une chose utile.`).join(" ");
    expect(sentences.length).toBeGreaterThan(150_000);
    fakes().control.set("gpt4", { answer: sentences });
    const id = await askReady(t);
    expect((await process(t, id)).status).toBe(200);
    const stored = await storedAnswerOf(t, id, "GPT-4");
    expect(stored).toEndWith(`utile.${MARK}`);
    expect(stored.length - MARK.length).toBeLessThanOrEqual(CAP_CHARS);
    expect(stored.length - MARK.length).toBeGreaterThan(CAP_CHARS - 50);
    expect(sentences.startsWith(stored.slice(0, -MARK.length))).toBe(true);
  });

  test("an answer within the cap is stored whole, unmarked", async () => {
    const t = await chatApp(fakes());
    const answer = "Paris. ".repeat(1_000).trim();
    fakes().control.set("gpt4", { answer });
    const id = await askReady(t);
    await process(t, id);
    expect(await storedAnswerOf(t, id, "GPT-4")).toBe(answer);
  });
});
