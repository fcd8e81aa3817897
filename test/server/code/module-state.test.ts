import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..", "..", "..");

/** Top-level variables, caches and process-wide settings: what a module could keep between two apps. */
const STATE = /^(?:let |var |(?:export )?const \w+\s*(?::[^=]+)?=\s*new (?:Map|WeakMap|AsyncLocalStorage)\b|[a-z]\w*\.(?:config|on)\()/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function unexplainedState(text: string): string[] {
  const lines = text.split("\n");
  return lines.filter((line, i) => STATE.test(line) && !lines.slice(Math.max(0, i - 3), i).some((l) => l.includes("Module state:")));
}

/**
 * Everything a request needs comes through Deps (src/deps.ts); a module that
 * keeps something of its own says why, in a `Module state:` comment right
 * above it (docs/ARCHITECTURE.md, "Module state").
 */
describe("module state", () => {
  test("every module-level variable, cache or process-wide setting in src/ and cli/ says why it is not in Deps", () => {
    const found: string[] = [];
    for (const file of [...files(join(root, "src")), ...files(join(root, "cli"))]) {
      for (const line of unexplainedState(readFileSync(file, "utf8"))) found.push(`${relative(root, file)}: ${line}`);
    }
    expect(found).toEqual([]);
  });

  test("the check finds a cache left without its reason", () => {
    expect(unexplainedState("const cache = new Map<string, number>();\nlet n = 0;")).toEqual(["const cache = new Map<string, number>();", "let n = 0;"]);
    expect(unexplainedState("// Module state: one per process.\nlet n = 0;")).toEqual([]);
  });
});
