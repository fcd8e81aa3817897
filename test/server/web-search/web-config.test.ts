import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config.ts";

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected the configuration to be refused");
};

describe("web search configuration", () => {
  test("without WEB_SEARCH_URL there is no web search, whatever the other variables say", () => {
    expect(loadConfig({ WEB_SEARCH_DEFAULT: "true", WEB_SEARCH_ENABLED: "true" }).webSearch).toBeNull();
  });

  test("the defaults: 5 results, 8 s, 6,000 tokens, off for a user who never chose, public addresses only", () => {
    expect(loadConfig({ WEB_SEARCH_URL: "http://searxng:8080/" }).webSearch).toEqual({
      engine: { kind: "searxng", url: "http://searxng:8080" },
      byDefault: false,
      results: 5,
      timeoutMs: 8000,
      tokenBudget: 6000,
      allowPrivate: false,
    });
  });

  test("without WEB_SEARCH_URL, a Brave Search key makes Brave the search service", () => {
    expect(loadConfig({ BRAVE_SEARCH_API_KEY: "clé-brave" }).webSearch!.engine).toEqual({
      kind: "brave",
      url: "https://api.search.brave.com",
      key: "clé-brave",
    });
  });

  test("WEB_FETCH_ALLOW_PRIVATE takes true, or a list of addresses and ranges", () => {
    const allow = (v: string) => loadConfig({ WEB_SEARCH_URL: "http://searxng:8080", WEB_FETCH_ALLOW_PRIVATE: v }).webSearch!.allowPrivate;
    expect(allow("true")).toBe(true);
    expect(allow("10.0.0.0/8, 192.168.1.20")).toEqual(["10.0.0.0/8", "192.168.1.20"]);
  });

  test("bad values are refused in French, naming the variable", () => {
    expect(refused({ WEB_SEARCH_ENABLED: "oui" })).toBe('Configuration invalide : WEB_SEARCH_ENABLED="oui" doit valoir true ou false');
    expect(refused({ WEB_FETCH_ALLOW_PRIVATE: "intranet" })).toBe(
      'Configuration invalide : WEB_FETCH_ALLOW_PRIVATE="intranet" doit valoir true, false ou une liste d\'adresses IP ou de CIDR séparés par des virgules',
    );
    expect(refused({ WEB_SEARCH_URL: "ftp://searxng" })).toStartWith("Configuration invalide : WEB_SEARCH_URL=");
    expect(refused({ WEB_SEARCH_RESULTS: "50" })).toBe('Configuration invalide : WEB_SEARCH_RESULTS="50" doit valoir au plus 10');
  });
});
