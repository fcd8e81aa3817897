import { describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { files } from "../../../build/web/manifest.ts";
import { createTestApp } from "../../helpers/app.ts";
import { seedConversation } from "../history/history.helpers.ts";
import { makeUser } from "../../helpers/fixtures.ts";

const mainJs = () => [...files.keys()].find((k) => /^\/assets\/main-.*\.js$/.test(k))!;
const raw = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("static files", () => {
  test("a client accepting Brotli gets the Brotli copy written at build, cached a year", async () => {
    const { app } = await createTestApp();
    const plain = await raw(await app.request(mainJs()));
    const res = await app.request(mainJs(), { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    const body = await raw(res);
    expect(body.length).toBeLessThan(plain.length / 2);
    expect(new Uint8Array(brotliDecompressSync(body))).toEqual(plain);
  });

  test("gzip when Brotli is refused or not offered", async () => {
    const { app } = await createTestApp();
    for (const header of ["gzip", "br;q=0, gzip", "gzip;q=1, br;q=0.5"]) {
      const res = await app.request(mainJs(), { headers: { "accept-encoding": header } });
      expect(res.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(await raw(res)).length).toBeGreaterThan(1000);
    }
  });

  test("the precompressed copies exist beside every hashed script and stylesheet", () => {
    for (const [url, f] of files) if (/\.(js|css)$/.test(url)) expect({ url, br: !!f.br, gzip: !!f.gzip }).toEqual({ url, br: true, gzip: true });
  });

  test("index.html carries an ETag, is revalidated, and answers 304 when unchanged", async () => {
    const { app } = await createTestApp();
    const first = await app.request("/", { headers: { "accept-encoding": "br" } });
    expect(first.headers.get("cache-control")).toBe("no-cache");
    expect(first.headers.get("content-encoding")).toBe("br");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[a-z0-9]+"$/);
    const again = await app.request("/", { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const stale = await app.request("/", { headers: { "if-none-match": '"autre"' } });
    expect(stale.status).toBe(200);
  });

  test("robots.txt lets crawlers in and keeps them out of the API", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(await res.text()).toBe("User-agent: *\nAllow: /\nDisallow: /api/\n");
  });
});

describe("JSON answers", () => {
  test("a large JSON answer is compressed with Brotli or gzip as accepted", async () => {
    const t = await createTestApp();
    const { user, token } = await makeUser(t.db, t.clock.now());
    for (let i = 0; i < 30; i++) await seedConversation({ ...t, user, token }, `Une question assez longue numéro ${i} sur un sujet quelconque`);
    const headers = { authorization: `Bearer ${token}` };
    const plain = await t.app.request("/api/unisson/history", { headers });
    const plainText = await plain.text();
    expect(plainText.length).toBeGreaterThan(1024);
    const br = await t.app.request("/api/unisson/history", { headers: { ...headers, "accept-encoding": "br, gzip" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toContain("Accept-Encoding");
    expect(br.headers.get("content-type")).toContain("application/json");
    expect(brotliDecompressSync(await raw(br)).toString()).toBe(plainText);
    const gz = await t.app.request("/api/unisson/history", { headers: { ...headers, "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(await raw(gz)).toString()).toBe(plainText);
  });

  test("a small JSON answer goes as it is", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/api/health", { headers: { "accept-encoding": "br, gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.json()).toBeTruthy();
  });

  test("an error answer keeps its status and French detail when compressed", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/api/unisson/history", { headers: { "accept-encoding": "br" } });
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toBeTruthy();
  });
});
