import { describe, expect, test } from "bun:test";
import { files } from "../../../build/web/manifest.ts";
import { createTestApp } from "../../helpers/app.ts";

describe("SPA serving", () => {
  test("/ serves the app's HTML, never cached", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const html = await res.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toMatch(/<script type="module" src="\/assets\/main-[a-z0-9]+\.js">/);
  });

  test("any path containing reset-password serves the app", async () => {
    const { app } = await createTestApp();
    for (const p of ["/reset-password", "/reset-password?token=abc", "/auth/reset-password/x"]) {
      const res = await app.request(p);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  test("other paths answer a French 404 page", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/somewhere-else");
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page introuvable");
  });

  test("hashed assets are cached for a year and gzipped when accepted", async () => {
    const { app } = await createTestApp();
    // The main bundle: chunk names are content hashes, so "the first .js" could be a tiny shared chunk.
    const js = [...files.keys()].find((k) => k.startsWith("/assets/main-") && k.endsWith(".js"))!;
    const res = await app.request(js, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("content-type")).toContain("javascript");
    const plain = await app.request(js);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect((await plain.text()).length).toBeGreaterThan(1000);
  });

  test("a repeated asset request with its ETag answers 304", async () => {
    const { app } = await createTestApp();
    const css = [...files.keys()].find((k) => k.endsWith(".css"))!;
    const first = await app.request(css);
    const etag = first.headers.get("etag")!;
    const again = await app.request(css, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  test("the web app manifest is served", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect((await res.json()).short_name).toBe("Unisson");
  });
});
