/**
 * Compiles the server and CLI into one executable (default dist/unisson),
 * with the SPA of build/web and the migrations embedded. `--bytecode`
 * ships precompiled JavaScript: start-up drops from about 250 ms to about
 * 80 ms (docs/BENCHMARKS.md, cold start). Usage: bun scripts/build-binary.ts [outfile]
 */
import { join } from "node:path";

/**
 * `__dirname` as the executable's own file system names its root: Bun gives a CommonJS module that reads it
 * (pino's transports, thread-stream) its folder at build time, `var __dirname="/home/…/node_modules/pino/lib"`,
 * so the clone's path was in the executable and two clones built different bytes (issue 46). Neither code path
 * runs here (the logger writes to its own stream, no worker transport).
 */
const BUNFS_DIRNAME = '__dirname="/$bunfs/root"';

export const BUILD_FLAGS = ["--compile", "--minify", "--bytecode", "--format=esm", "--define", BUNFS_DIRNAME];

const root = join(import.meta.dir, "..");

/** Runs `bun build` with the release flags; returns its exit code and error output. */
export function buildBinary(outfile: string): { exitCode: number; stderr: string } {
  // One entry for the server, the CLI and the attachment readers (the executable itself: src/attachments/reader-command.ts);
  // the web page reader is a Worker, bundled only when listed (src/web-search/).
  const entries = [join(root, "src", "main.ts"), join(root, "src", "web-search", "page-text.worker.ts")];
  const r = Bun.spawnSync([process.execPath, "build", ...entries, ...BUILD_FLAGS, "--outfile", outfile], {
    cwd: root,
    // Bun inlines the builder's NODE_ENV into the bundle (a dependency's `process.env.NODE_ENV == …` folds away):
    // without it, one commit gives the same executable whoever builds it (`bun test` sets "test"; docs/DECISIONS.md).
    env: withoutNodeEnv(process.env),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { exitCode: r.exitCode ?? 1, stderr: r.stderr.toString() };
}

function withoutNodeEnv(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const { NODE_ENV: _, ...rest } = env;
  return rest;
}

if (import.meta.main) {
  const outfile = process.argv[2] ?? join(root, "dist", "unisson");
  const { exitCode, stderr } = buildBinary(outfile);
  if (exitCode !== 0) {
    console.error(stderr);
    process.exit(exitCode);
  }
  console.log(`built ${outfile}`);
}
