import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { contactMessages, mailOutbox, users } from "../../../src/db/schema/index.ts";
import { buildWorld, useOutside, type World } from "./world.ts";

/**
 * Markup, script and odd characters in names, questions and model answers:
 * the API keeps them as data (JSON strings, exactly as typed), the e-mails
 * escape them, and refusals are French 4xx that store nothing. That no
 * script runs in the page is proven in a browser (test/e2e/xss.e2e.test.ts).
 */
const outside = useOutside();

const SCRIPT_NAME = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
const MARKDOWN_HTML = `**gras** [lien](javascript:alert(1)) <iframe src="https://evil.example"></iframe> <svg onload=alert(3)>`;

async function register(w: World, fields: Record<string, string>) {
  return w.call("POST", "/api/auth/register", {
    json: { email: `m-${crypto.randomUUID()}@example.fr`, password: "Secret-Girafe-123", first_name: "Léa", last_name: "Roux", ...fields },
  });
}

async function outboxHtml(w: World, to: string): Promise<string[]> {
  return (await w.db.select({ html: mailOutbox.html }).from(mailOutbox).where(eq(mailOutbox.to, to))).map((r) => r.html ?? "");
}

describe("markup and unusual characters are data, never markup", () => {
  test("a name full of HTML comes back exactly as typed, as JSON", async () => {
    const w = await buildWorld(outside());
    const res = await register(w, { first_name: SCRIPT_NAME });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    const me = await w.call("GET", "/api/auth/me", { token: res.body.token });
    expect(me.body.first_name).toBe(SCRIPT_NAME);
  });

  test("e-mails escape an HTML name: no tag of the user reaches the HTML part", async () => {
    const w = await buildWorld(outside());
    const email = `m-${crypto.randomUUID()}@example.fr`;
    await register(w, { email, first_name: SCRIPT_NAME });
    await w.call("POST", "/api/auth/forgot-password", { json: { email } });
    const htmls = await outboxHtml(w, email);
    expect(htmls.length).toBeGreaterThan(0);
    for (const html of htmls) {
      expect(html).not.toContain("<script>alert(2)");
      expect(html).not.toContain("<img src=x");
      expect(html).toContain("&lt;script&gt;");
    }
  });

  test("the contact mail escapes HTML in the name, subject and message", async () => {
    const w = await buildWorld(outside());
    const res = await w.call("POST", "/api/contact", { json: { name: SCRIPT_NAME, email: "lea@example.fr", subject: MARKDOWN_HTML, message: SCRIPT_NAME } });
    expect(res.status).toBe(200);
    const [row] = await w.db.select({ html: mailOutbox.html }).from(mailOutbox).where(eq(mailOutbox.kind, "contact"));
    const html = row!.html!;
    for (const raw of ["<script>", "<img src=x", "<iframe", "<svg onload"]) expect(html).not.toContain(raw);
  });

  test("a question with Markdown, HTML and script is stored and listed exactly as typed", async () => {
    const w = await buildWorld(outside());
    const res = await w.call("POST", "/api/unisson/chat", { token: w.tokens.user, json: { message: `${MARKDOWN_HTML} ${SCRIPT_NAME}` } });
    expect(res.status).toBe(200);
    const history = await w.call("GET", "/api/unisson/history", { token: w.tokens.user });
    const conv = history.body.conversations.find((c: { id: number }) => c.id === res.body.conversation_id);
    expect(conv.first_message).toBe(`${MARKDOWN_HTML} ${SCRIPT_NAME}`);
  });

  test("a model answer carrying script is kept as text in the stored answer, never dropped or run", async () => {
    const w = await buildWorld(outside());
    outside().ai.control.set("gpt4", { answer: `Réponse ${SCRIPT_NAME}` });
    try {
      const res = await w.call("POST", "/api/unisson/process", { token: w.tokens.user, json: { conversation_id: w.conversationId } });
      expect(res.status).toBe(200);
      const gpt = res.body.message.result_data.models.find((m: { name: string }) => m.name === "GPT-4");
      expect(gpt.answer).toBe(`Réponse ${SCRIPT_NAME}`);
    } finally {
      outside().ai.control.reset();
    }
  });

  test("accents, emoji and other scripts round-trip; names are stored in NFC", async () => {
    const w = await buildWorld(outside());
    const decomposed = "Zoe\u0301 🎉 李 محمد";
    const res = await register(w, { first_name: decomposed });
    expect(res.status).toBe(200);
    expect(res.body.user.first_name).toBe(decomposed.normalize("NFC"));
  });

  for (const [label, ch] of [
    ["NUL", "\u0000"],
    ["a newline", "\n"],
    ["an escape", "\u001b"],
    ["a right-to-left override", "\u202e"],
    ["a zero-width space", "\u200b"],
  ] as const) {
    test(`a name holding ${label} is refused with a French 400 and no account is created`, async () => {
      const w = await buildWorld(outside());
      const before = await w.db.select({ n: count() }).from(users);
      const res = await register(w, { last_name: `Ro${ch}ux` });
      expect([res.status, res.body.detail]).toEqual([400, "Ce champ contient des caractères non autorisés."]);
      expect(await w.db.select({ n: count() }).from(users)).toEqual(before);
    });
  }

  test("a NUL anywhere in a request (a JSON field, a nested message, a query) is refused with a French 400 and stores nothing", async () => {
    const w = await buildWorld(outside());
    const refused = "Ce champ contient des caractères non autorisés.";
    const calls = [
      w.call("POST", "/api/contact", { json: { name: "Léa", email: "lea@example.fr", subject: "Bonjour", message: "Un\u0000message" } }),
      w.call("POST", "/api/unisson/chat", { token: w.tokens.user, json: { message: "Question \u0000 fin" } }),
      w.call("GET", `/api/unisson/history?q=${encodeURIComponent("tomate\u0000")}`, { token: w.tokens.user }),
      w.call("POST", "/v1/chat/completions", {
        headers: { authorization: `Bearer ${w.apiKeySecret}` },
        json: { model: "unisson", messages: [{ role: "user", content: "Question \u0000 fin" }] },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(refused);
    }
    expect(await w.db.select({ n: count() }).from(contactMessages)).toEqual([{ n: 0 }]);
  });

  test("control characters in a question never cause a 5xx", async () => {
    const w = await buildWorld(outside());
    for (const ch of ["\u0000", "\u0007", "\u001b[31m", "\ud800", "\u202e"]) {
      const res = await w.call("POST", "/api/unisson/chat", { token: w.tokens.user, json: { message: `Question ${ch} fin` } });
      expect(res.status).toBeLessThan(500);
    }
  });
});
