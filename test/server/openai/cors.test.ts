import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../../helpers/chromium.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, balance } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const PAGE_ORIGIN = "http://127.0.0.1:4321";
/** What the official SDKs send with a completion. */
const SDK_HEADERS = "authorization,content-type,x-stainless-retry-count,x-stainless-os,x-stainless-timeout";

function preflight(url: string, origin = PAGE_ORIGIN, headers = SDK_HEADERS) {
  return fetch(url, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": headers },
  });
}

describe("CORS on /v1", () => {
  test("a preflight is answered before the key check: 204, any origin by default, the SDK's headers allowed", async () => {
    const t = await apiApp(fakes());
    const res = await preflight(`${t.url}/v1/chat/completions`);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = res.headers.get("access-control-allow-headers")!.split(",");
    for (const h of SDK_HEADERS.split(",")) expect(allowed).toContain(h);
  });

  test("the headers browser clients add (X-Title, HTTP-Referer) are allowed with the bearer key", async () => {
    const t = await apiApp(fakes());
    const res = await preflight(`${t.url}/v1/chat/completions`, PAGE_ORIGIN, "authorization,content-type,x-title,http-referer");
    const allowed = res.headers.get("access-control-allow-headers")!.split(",");
    for (const h of ["authorization", "content-type", "x-title", "http-referer"]) expect(allowed).toContain(h);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("an error answered to another origin carries the CORS header, so the page can read it", async () => {
    const t = await apiApp(fakes());
    const res = await fetch(`${t.url}/v1/models`, { headers: { origin: PAGE_ORIGIN } });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("API_CORS_ORIGINS: a listed origin is allowed, another is not", async () => {
    const t = await apiApp(fakes(), { env: { API_CORS_ORIGINS: `${PAGE_ORIGIN}, https://chat.example.fr` } });
    const listed = await preflight(`${t.url}/v1/chat/completions`);
    expect(listed.headers.get("access-control-allow-origin")).toBe(PAGE_ORIGIN);
    const other = await preflight(`${t.url}/v1/chat/completions`, "https://evil.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("the page's own API sends no CORS header to another origin", async () => {
    const t = await apiApp(fakes());
    const res = await preflight(`${t.url}/api/unisson/chat`);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const get = await fetch(`${t.url}/api/auth/me`, { headers: { origin: PAGE_ORIGIN, authorization: `Bearer ${t.token}` } });
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("in Chromium, the official openai client on a page of another port gets the answer (and a readable 401)", async () => {
    const t = await apiApp(fakes());
    const built = await Bun.build({ entrypoints: [join(import.meta.dir, "browser-client.ts")], target: "browser" });
    if (!built.success) throw new Error(String(built.logs));
    const script = await built.outputs[0]!.text();
    const page = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) =>
        new URL(req.url).pathname === "/client.js"
          ? new Response(script, { headers: { "content-type": "text/javascript" } })
          : new Response('<!doctype html><script src="/client.js"></script>', { headers: { "content-type": "text/html" } }),
    });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const tab = await browser.newPage();
      await tab.goto(`http://127.0.0.1:${page.port}/`);
      await tab.waitForFunction(() => "ask" in window);
      const base = `${t.url}/v1`;
      type Answer = { ok: boolean; content?: string; status?: number };
      const run = (key: string) =>
        tab.evaluate(([b, k, q]) => (window as unknown as { ask: (...a: string[]) => Promise<Answer> }).ask(b!, k!, q!), [base, key, QUESTION]);
      const answer = await run(t.key);
      expect(answer).toMatchObject({ ok: true });
      const history = await t.call("GET", "/api/unisson/history", { token: t.token });
      const conv = await t.call("GET", `/api/unisson/conversation/${history.body.conversations[0].id}`, { token: t.token });
      expect(answer.content).toBe(conv.body.messages.at(-1).content);
      expect(await balance(t)).toBe(4);

      const refused = await run("uns_wrong");
      expect(refused).toMatchObject({ ok: false, status: 401 });
    } finally {
      await browser.close();
      page.stop(true);
    }
  }, 60_000);
});
