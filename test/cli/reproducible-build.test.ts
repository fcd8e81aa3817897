import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { ensureBinary, tempDir } from "../helpers/binary.ts";
import { startSourceServer } from "../helpers/source-server.ts";

/**
 * Two builds of one commit give the same bytes (issue 36): the web assets,
 * names included, and the executable. The executable is compared whole, so
 * whatever Bun's compiler embeds (the runtime, the bytecode, the SPA, the
 * migrations) is proven identical with it; the one variable thing Bun embeds
 * is the output's file name (docs/DECISIONS.md, "Reproducible builds"), not
 * the folder built in (issue 46: `__dirname`, scripts/build-binary.ts).
 */
setDefaultTimeout(240_000);
const root = join(import.meta.dir, "..", "..");
const temps: Array<{ cleanup(): void }> = [];
afterAll(() => {
  for (const t of temps) t.cleanup();
});
function temp(prefix: string): string {
  const t = tempDir(prefix);
  temps.push(t);
  return t.path;
}

/** Every file of a folder with its SHA-256, by relative path. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!d.isFile()) continue;
    const path = join(d.parentPath, d.name);
    out[relative(dir, path)] = new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");
  }
  return out;
}

function buildWeb(cwd: string, outdir: string): void {
  const r = Bun.spawnSync([process.execPath, "scripts/build-web.ts", outdir], { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`web build failed: ${r.stderr.toString()}`);
}

const sha256 = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");

describe("reproducible builds", () => {
  test("two web builds of the same sources are byte-identical, file names included", () => {
    const a = join(temp("unisson-web-a-"), "web");
    const b = join(temp("unisson-web-b-"), "web");
    buildWeb(root, a);
    buildWeb(root, b);
    const first = tree(a);
    expect(Object.keys(first).some((f) => /^assets\/styles-[a-z0-9]+\.css$/.test(f))).toBe(true);
    expect(tree(b)).toEqual(first);
  });

  test("two executables built from the same tree are byte-identical, whatever the builder's NODE_ENV", () => {
    // The one the other executable tests share in this process (built under `bun test`'s NODE_ENV, "test", or none)
    // and a second one, as `npm run build` from a shell with NODE_ENV=development writes it, under the same file name:
    // Bun embeds the output's name (/$bunfs/root/unisson). One build, not one per property: each costs about 20 s of
    // CPU, and equal bytes across two environments also prove two builds in one environment equal.
    const a = ensureBinary();
    const b = join(temp("unisson-bin-again-"), basename(a));
    const r = Bun.spawnSync([process.execPath, "scripts/build-binary.ts", b], { cwd: root, env: { ...process.env, NODE_ENV: "development" }, stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
    expect(sha256(b)).toBe(sha256(a));
  });
});

describe("reproducible builds whatever the folder", () => {
  test("two clones at two different paths build the same executable", () => {
    // Two copies of the sources, node_modules hard-linked (a symlink would resolve to the same real path in both),
    // each with its own web build: nothing of either folder's path may reach the bytes.
    const built = ["unisson-clone-a-", "unisson-clone-bb-"].map((prefix) => {
      const clone = join(temp(prefix), "depot");
      for (const f of ["src", "cli", "web", "scripts", "package.json", "tsconfig.json", "bunfig.toml"])
        cpSync(join(root, f), join(clone, f), { recursive: true });
      const link = Bun.spawnSync(["cp", "-al", join(root, "node_modules"), join(clone, "node_modules")], { stderr: "pipe" });
      if (link.exitCode !== 0) throw new Error(link.stderr.toString());
      buildWeb(clone, join(clone, "build", "web"));
      const out = join(clone, "dist", "unisson");
      const r = Bun.spawnSync([process.execPath, "scripts/build-binary.ts", out], { cwd: clone, stderr: "pipe" });
      if (r.exitCode !== 0) throw new Error(r.stderr.toString());
      expect(readFileSync(out).includes(clone)).toBe(false);
      return sha256(out);
    });
    expect(built[1]).toBe(built[0]!);
  });
});

describe("a running server and a rebuild beside it", () => {
  test("the server keeps serving the stylesheet its page names, whatever build/web becomes", async () => {
    // A copy of the sources (node_modules linked) with a build/web of its own, so the real one is never touched.
    const copy = temp("unisson-rebuild-");
    for (const f of ["src", "cli", "web", "scripts", "package.json", "tsconfig.json", "bunfig.toml"]) cpSync(join(root, f), join(copy, f), { recursive: true });
    symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
    buildWeb(copy, join(copy, "build", "web"));
    const server = await startSourceServer({ DATA_DIR: join(copy, "data") }, copy);
    try {
      // The page is handed out; the browser asks for its stylesheet only after the rebuild.
      const page = await (await fetch(`${server.url}/`)).text();
      const stylesheet = page.match(/\/assets\/styles-[a-z0-9]+\.css/)![0];
      const before = readFileSync(join(copy, "build", "web", stylesheet), "utf8");
      // A change to the styles, rebuilt: the old stylesheet's file is gone from build/web.
      writeFileSync(join(copy, "web", "styles.css"), `${readFileSync(join(copy, "web", "styles.css"), "utf8")}\n.rebuilt { color: red; }\n`);
      buildWeb(copy, join(copy, "build", "web"));
      expect(readdirSync(join(copy, "build", "web", "assets"))).not.toContain(stylesheet.slice("/assets/".length));
      const after = await fetch(`${server.url}${stylesheet}`);
      expect(after.status).toBe(200);
      expect(await after.text()).toBe(before);
    } finally {
      await server.stop();
    }
  });
});
