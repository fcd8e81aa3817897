/**
 * Bundled for the browser by cors.test.ts: the official openai client as a
 * browser chat UI runs it, on a page of another origin.
 */
import OpenAI from "openai";

async function ask(baseURL: string, apiKey: string, question: string) {
  const client = new OpenAI({ apiKey, baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 });
  try {
    const res = await client.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: question }] });
    return { ok: true, content: res.choices[0]?.message.content ?? null };
  } catch (e) {
    const err = e as { status?: number; message?: string };
    return { ok: false, status: err.status ?? null, message: String(err.message) };
  }
}

(window as unknown as { ask: typeof ask }).ask = ask;
