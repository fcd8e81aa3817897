import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..", "..");

/** Dependencies no module imports, and why they are still declared. */
const NOT_IMPORTED: Record<string, string> = {
  // The runtime itself: `npm install` brings the bun executable that runs and compiles the product.
  bun: "the runtime",
};

/** Every package a file of these folders names in an import, a dynamic import or a require. */
function importedPackages(folders: readonly string[]): Set<string> {
  const found = new Set<string>();
  const specifier = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)["']([^"'./][^"']*)["']/g;
  for (const folder of folders) {
    for (const file of readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })) {
      if (!/\.(ts|tsx)$/.test(file)) continue;
      for (const [, spec] of readFileSync(join(root, folder, file), "utf8").matchAll(specifier)) {
        const parts = spec!.split("/");
        found.add(spec!.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
      }
    }
  }
  return found;
}

/**
 * A runtime dependency nothing imports is weight in every install and a
 * supply-chain risk for nothing (issue 48: `marked` stayed declared after the
 * answers moved to react-markdown).
 */
describe("dependencies", () => {
  test("every runtime dependency of package.json is imported by the server, the CLI, the page or the build", () => {
    const declared = Object.keys(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).dependencies);
    const used = importedPackages(["src", "cli", "web", "scripts"]);
    expect(declared.filter((name) => !used.has(name) && !(name in NOT_IMPORTED))).toEqual([]);
  });
});
