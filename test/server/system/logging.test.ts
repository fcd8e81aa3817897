import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config.ts";
import { createMemoryLogger } from "../../helpers/memory-logger.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { askReady, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";

const fakes = useFakeProviders();

/** An app whose log lines are LOG_FORMAT=json, kept in memory. */
async function jsonApp() {
  const log = createMemoryLogger("debug", "json");
  const t = await createTestApp({ env: { LOG_FORMAT: "json" }, deps: { log } });
  return { ...t, lines: () => log.lines.map((l) => JSON.parse(l) as Record<string, unknown>), raw: log.lines };
}

describe("logs", () => {
  test("LOG_FORMAT is pretty by default, json on demand, and anything else names the variable", () => {
    expect(loadConfig({}).logFormat).toBe("pretty");
    expect(loadConfig({ LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(() => loadConfig({ LOG_FORMAT: "xml" })).toThrow('Configuration invalide : LOG_FORMAT="xml" doit valoir pretty ou json');
  });

  test("LOG_FORMAT=json: every line is one JSON object, the request's lines carry its X-Request-Id, sent back", async () => {
    const t = await jsonApp();
    const res = await t.call("GET", "/api/warmup", { headers: { "x-request-id": "essai-123" } });
    expect(res.headers.get("x-request-id")).toBe("essai-123");
    const http = t.lines().filter((l) => l.msg === "http");
    expect(http).toHaveLength(1);
    expect(http[0]).toMatchObject({ level: "info", request_id: "essai-123", method: "GET", path: "/api/warmup", status: 200 });
    expect(typeof http[0]!.time).toBe("string");
  });

  test("a request without an id gets one, different for each request", async () => {
    const t = await jsonApp();
    const a = await t.call("GET", "/api/warmup");
    const b = await t.call("GET", "/api/warmup", { headers: { "x-request-id": "mal formé\n" } });
    const ids = [a.headers.get("x-request-id"), b.headers.get("x-request-id")];
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(t.lines().map((l) => l.request_id)).toEqual(ids);
  });

  test("the lines of a signed-in user's request carry the user id", async () => {
    const t = await jsonApp();
    const { user, token } = await makeUser(t.db, t.clock.now());
    await t.call("GET", "/api/auth/me", { token });
    const http = t.lines().find((l) => l.msg === "http")!;
    expect(http.user_id).toBe(user.id);
  });

  test('the request line is the line of "http" with its fields, at debug or info, in both formats', () => {
    const lines = [
      { method: "GET", path: "/api/auth/me", status: 200, ms: 0.3, user_id: 12, request_id: "essai-123" },
      { method: "POST", path: '/api/x y="z"', status: 404, ms: 12, user_id: undefined, request_id: "0f8e2c1a-4b5d-4e6f-8a9b-0c1d2e3f4a5b" },
    ];
    for (const format of ["json", "pretty"] as const) {
      for (const level of ["debug", "info"] as const) {
        const log = createMemoryLogger("debug", format);
        for (const fields of lines) {
          log.request(level, fields);
          log[level]("http", fields);
        }
        // The time aside (two calls may straddle a millisecond).
        const noTime = log.lines.map((l) => l.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/, "T"));
        expect(noTime).toHaveLength(4);
        expect(noTime[0]).toBe(noTime[1]!);
        expect(noTime[2]).toBe(noTime[3]!);
      }
    }
    const info = createMemoryLogger("info", "pretty");
    info.request("debug", lines[0]!);
    expect(info.lines).toEqual([]);
  });

  test("a value spanning several lines stays on one line, in both formats", () => {
    for (const format of ["json", "pretty"] as const) {
      const log = createMemoryLogger("debug", format);
      log.info("mail text:\nBonjour,\nvotre code", { text: "ligne 1\nligne 2\r\nligne 3" });
      expect(log.lines).toHaveLength(1);
      expect(log.lines[0]).not.toMatch(/[\r\n]/);
    }
  });

  test("a provider failure names provider, model id, HTTP status and the provider's own message, never the key", async () => {
    fakes().control.set("claudeHaiku", { fail: 401, failOn: ["answer"] });
    const t = await chatApp(fakes());
    const id = await askReady(t);
    await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id }, headers: { "x-request-id": "process-1" } });
    const line = t.log.lines.find((l) => l.includes("ai call failed") && l.includes("model_id=claude-3-haiku-20240307") && l.includes("purpose=answer"));
    expect(line).toBeDefined();
    expect(line).toContain("provider=anthropic");
    expect(line).toContain("status=401");
    expect(line).toContain("Invalid API key");
    expect(line).toContain("request_id=process-1");
    for (const key of Object.entries(fakes().env)
      .filter(([k]) => k.endsWith("_API_KEY"))
      .map(([, v]) => v))
      expect(line).not.toContain(key);
  });
});
