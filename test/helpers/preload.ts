import { existsSync } from "node:fs";
import { join } from "node:path";

// The server imports the bundled SPA's manifest; build it once if a fresh clone has none.
const root = join(import.meta.dir, "..", "..");
if (!existsSync(join(root, "build", "web", "manifest.ts"))) {
  const r = Bun.spawnSync([process.execPath, join(root, "scripts", "build-web.ts")], { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (r.exitCode !== 0) throw new Error("web build failed");
}
