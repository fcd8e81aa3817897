import { describe, expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..", "..", "..");

/** The role suffixes of docs/ARCHITECTURE.md, "Names"; any other file has a plain name. */
const ROLES = ["routes", "service", "queries", "store", "schemas", "job", "view", "worker"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "migrations" ? [] : files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function badName(name: string): boolean {
  if (name.endsWith(".d.ts")) return false;
  const parts = name.replace(/\.tsx?$/, "").split(".");
  if (parts.length === 1) return !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(parts[0]!);
  return parts.length !== 2 || !ROLES.includes(parts[1]!) || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(parts[0]!);
}

describe("file names", () => {
  test("every file of src/ and cli/ is <subject>.<role>.ts with a known role, or a plain kebab-case name", () => {
    const bad = [...files(join(root, "src")), ...files(join(root, "cli"))].filter((f) => badName(f.split("/").at(-1)!));
    expect(bad.map((f) => relative(root, f))).toEqual([]);
  });

  test("the rule refuses a role of its own and a second dot", () => {
    expect(["chat.turn.ts", "ai.calls.queries.ts", "Chat.ts"].filter(badName)).toEqual(["chat.turn.ts", "ai.calls.queries.ts", "Chat.ts"]);
    expect(["chat.routes.ts", "live-run.ts", "assets.d.ts", "renewals.job.ts"].filter(badName)).toEqual([]);
  });
});
