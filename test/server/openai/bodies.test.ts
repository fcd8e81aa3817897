import { describe, expect, spyOn, test } from "bun:test";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, balance } from "./openai.helpers.ts";

/**
 * /v1 bodies (openai.routes.ts, v1-body.ts): the key first, then the bytes,
 * then the shape, then one parse; long threads read by their tail.
 */
const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";

type Api = Awaited<ReturnType<typeof apiApp>>;

function post(t: Api, body: string | ReadableStream, key: string | null = t.key) {
  return fetch(`${t.url}/v1/chat/completions`, {
    method: "POST",
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "content-type": "application/json" },
    body,
    // A streamed body (the never-ending one below) needs it.
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** A chat app's whole conversation: `exchanges` questions and answers of `chars` characters, then the question. */
function thread(exchanges: number, chars: number) {
  const messages: Array<{ role: string; content: string }> = [];
  for (let i = 0; i < exchanges; i++) {
    messages.push({ role: "user", content: `Question ${i} : ${"q".repeat(chars)}` });
    messages.push({ role: "assistant", content: `Réponse ${i} : ${"r".repeat(chars)}` });
  }
  return { model: "unisson", messages: [...messages, { role: "user", content: QUESTION }] };
}

async function errorOf(res: Response): Promise<string | undefined> {
  return ((await res.json()) as { error?: { message: string } }).error?.message;
}

describe("/v1 long threads", () => {
  test("a thread of 1 MiB (300 exchanges) is answered; the models get its last turns and the question", async () => {
    const t = await apiApp(fakes());
    const body = JSON.stringify(thread(300, 1_800));
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const res = await post(t, body);
    expect(res.status).toBe(200);
    const [answer] = fakes().control.callsOf("answer", "gpt4");
    expect(answer!.messages.at(-1)!.content).toBe(QUESTION);
    expect(answer!.messages.at(-2)!.content).toStartWith("Réponse 299 : ");
    expect(answer!.messages.some((m) => m.content.startsWith("Question 0 : "))).toBe(false);
  });

  test("600 short messages: answered, not refused for their count", async () => {
    const t = await apiApp(fakes());
    const res = await post(t, JSON.stringify(thread(300, 10)));
    expect(res.status).toBe(200);
  });

  test("a thread over 4 MiB without files: 413 saying to send less history, nothing charged", async () => {
    const t = await apiApp(fakes());
    const res = await post(t, JSON.stringify(thread(500, 4_500)));
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toContain("la conversation envoyée dépasse 4 Mio");
    expect(await balance(t)).toBe(5);
  });
});

describe("/v1 bodies: the key first, the shape before the parse, one parse", () => {
  test("no key: 401 at once, before a byte of the body is read (a body that never ends)", async () => {
    const t = await apiApp(fakes());
    const endless = new ReadableStream({
      pull: async (c) => {
        await Bun.sleep(50);
        c.enqueue(new TextEncoder().encode(" ".repeat(64 * 1024)));
      },
    });
    const res = await post(t, endless, null);
    expect(res.status).toBe(401);
    await endless.cancel().catch(() => {});
  }, 10_000);

  test("a body of many small parts: 413 in French before it is parsed, nothing asked", async () => {
    const t = await apiApp(fakes());
    const parts = `[${Array(30_000).fill("[]").join(",")}]`;
    const res = await post(t, `{"model":"unisson","messages":[{"role":"user","content":"${QUESTION}"}],"metadata":${parts}}`);
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toContain("plus de 20 000 objets et listes");
    expect(fakes().control.callsOf("answer")).toHaveLength(0);
  });

  test("a body nested 1,000 deep: 413 in French, nothing asked", async () => {
    const t = await apiApp(fakes());
    const deep = `${"[".repeat(1_000)}${"]".repeat(1_000)}`;
    const res = await post(t, `{"model":"unisson","messages":[{"role":"user","content":"${QUESTION}"}],"metadata":${deep}}`);
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toContain("plus de 64 niveaux d'imbrication");
  });

  test("a JSON body is parsed once, on /v1 and on the page's API", async () => {
    const t = await apiApp(fakes());
    const v1 = JSON.stringify(thread(100, 2_000));
    const page = JSON.stringify({ name: "Une clé de plus" });
    const parse = spyOn(JSON, "parse");
    try {
      expect((await post(t, v1)).status).toBe(200);
      expect((await t.call("POST", "/api/auth/api-keys", { token: t.token, json: { name: "Une clé de plus" } })).status).toBe(201);
      expect(parse.mock.calls.filter(([text]) => text === v1)).toHaveLength(1);
      expect(parse.mock.calls.filter(([text]) => text === page)).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });
});
