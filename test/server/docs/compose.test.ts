import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../../..");
type Service = { environment?: Record<string, string>; healthcheck?: { test: string[] }; networks?: unknown; image?: string };
const compose = Bun.YAML.parse(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as {
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
    expect(a!.DATABASE_URL).toStartWith("postgres://unisson:");
    expect(a!.DATABASE_URL).toEndWith("@postgres:5432/unisson");
    expect(a!.PUBLIC_URL).toStartWith("https://$");
  });

  test("sets only variables the README documents", () => {
    const used = Object.keys(replicas[0]![1].environment!);
    expect(used.filter((v) => !documented.has(v))).toEqual([]);
  });

  test("believes X-Forwarded-For from the proxy's fixed address only", () => {
    const caddy = compose.services.caddy!.networks as Record<string, { ipv4_address?: string }>;
    expect(replicas[0]![1].environment!.TRUSTED_PROXIES).toBe(caddy.unisson!.ipv4_address!);
  });

  test("checks the servers' health: the image's healthcheck command, and the proxy's /api/health/ready on both upstreams", () => {
    for (const [, s] of replicas) expect(s.healthcheck!.test).toEqual(["CMD", "unisson", "healthcheck"]);
    expect(caddyfile).toContain("reverse_proxy unisson-1:3000 unisson-2:3000");
    expect(caddyfile).toContain("health_uri /api/health/ready");
    expect(compose.services.postgres!.healthcheck!.test.join(" ")).toContain("pg_isready");
  });
});
