import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTestApp } from "../../helpers/app.ts";

const ROOT = join(import.meta.dir, "../../..");
type Service = {
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  networks?: unknown;
  image?: string;
  build?: unknown;
  pull_policy?: string;
};
const composeText = readFileSync(join(ROOT, "compose.yaml"), "utf8");
const compose = Bun.YAML.parse(composeText) as {
  services: Record<string, Service & { networks: Record<string, { ipv4_address?: string }> | string[] }>;
};
const caddyfile = readFileSync(join(ROOT, "deploy/Caddyfile"), "utf8");
/** The variables of README's configuration table (the contract with CONFIG.md). */
const documented = new Set(
  [...readFileSync(join(ROOT, "README.md"), "utf8").matchAll(/^\| (.+?) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((v) => v[1]!)),
);
const replicas = Object.entries(compose.services).filter(([, s]) => s.image?.startsWith("unisson"));

describe("compose.yaml (the PostgreSQL deployment example)", () => {
  test("runs two Unisson servers with exactly the same configuration: one database, one PUBLIC_URL, the same secrets", () => {
    expect(replicas.map(([name]) => name)).toEqual(["unisson-1", "unisson-2"]);
    const [a, b] = replicas.map(([, s]) => s.environment!);
    expect(a).toEqual(b!);
    expect(a!.PUBLIC_URL).toStartWith("https://$");
  });

  test("gives the database password apart from DATABASE_URL, so a random one needs no URL encoding", () => {
    const env = replicas[0]![1].environment!;
    expect(env.DATABASE_URL).toBe("postgres://unisson@postgres:5432/unisson");
    expect(env.DATABASE_PASSWORD).toStartWith("${POSTGRES_PASSWORD");
    expect(compose.services.postgres!.environment!.POSTGRES_PASSWORD).toStartWith("${POSTGRES_PASSWORD");
  });

  test("builds one image for both servers and pins every other image's version", () => {
    expect(replicas.map(([, s]) => s.image)).toEqual(["unisson:local", "unisson:local"]);
    expect(replicas.filter(([, s]) => s.build !== undefined).map(([name]) => name)).toEqual(["unisson-1"]);
    expect(replicas[1]![1].pull_policy).toBe("never");
    const others = Object.values(compose.services)
      .map((s) => s.image!)
      .filter((image) => !image.startsWith("unisson"));
    // A version with at least major.minor (postgres:15.14-bookworm, caddy:2.10.2-alpine), never a bare major or latest.
    for (const image of others) expect(image).toMatch(/^[a-z0-9/_-]+:\d+\.\d+[\w.-]*$/);
  });

  test("says how to create the administrator", () => {
    expect(composeText).toMatch(/docker compose exec unisson-1 unisson users create --admin/);
  });

  test("sets only variables the README documents", () => {
    const used = Object.keys(replicas[0]![1].environment!);
    expect(used.filter((v) => !documented.has(v))).toEqual([]);
  });

  test("believes X-Forwarded-For from the proxy's fixed address only", () => {
    const caddy = compose.services.caddy!.networks as Record<string, { ipv4_address?: string }>;
    expect(replicas[0]![1].environment!.TRUSTED_PROXIES).toBe(caddy.unisson!.ipv4_address!);
  });

  test("checks the servers' health: the image's healthcheck command, and the proxy's liveness check on both upstreams", () => {
    for (const [, s] of replicas) expect(s.healthcheck!.test).toEqual(["CMD", "unisson", "healthcheck"]);
    expect(caddyfile).toContain("reverse_proxy unisson-1:3000 unisson-2:3000");
    // Liveness, not readiness: /api/health/ready is 503 with fewer than 2 models, which would take the whole site down.
    const healthUris = [...caddyfile.matchAll(/^\s*health_uri\s+(\S+)/gm)].map((m) => m[1]);
    expect(healthUris).toEqual(["/api/health"]);
    expect(compose.services.postgres!.healthcheck!.test.join(" ")).toContain("pg_isready");
  });
});

describe("deploy/Caddyfile's health check", () => {
  test("stays 200 for a server without any AI key (readiness would be 503 and take the site down)", async () => {
    const path = caddyfile.match(/^\s*health_uri\s+(\S+)/m)![1]!;
    const t = await createTestApp();
    expect((await t.call("GET", path)).status).toBe(200);
    expect((await t.call("GET", "/api/health/ready")).status).toBe(503);
  });
});
