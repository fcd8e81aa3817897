import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { type Config, DEFAULT_DATA_DIR, loadConfig } from "../src/config.ts";
import { refuseFileAsDataDir } from "../src/system/data-dir.ts";

/** The options every command shares (declared on the program in cli/index.ts). */
export type GlobalOptions = { json?: boolean; dataDir?: string };

/**
 * Config for a command, `serve` included, with --data-dir taking the place of
 * DATA_DIR. The data folder's `.env` is read under the environment (a
 * variable set in the environment wins): a server and the CLI run beside it
 * on the same folder share its settings (PUBLIC_URL in reset links, keys,
 * DATABASE_URL) however each was started. The folder itself comes from
 * --data-dir, DATA_DIR or the default, never from that file.
 */
export function configFor(opts: GlobalOptions, env: Record<string, string | undefined> = process.env): Config {
  const dataDir = opts.dataDir ?? env.DATA_DIR ?? DEFAULT_DATA_DIR;
  refuseFileAsDataDir(dataDir);
  return loadConfig({ ...dataDirEnvFile(dataDir), ...env, DATA_DIR: dataDir });
}

/** The variables of `<data folder>/.env` (none when there is no such file); its DATA_DIR is not one of them. */
export function dataDirEnvFile(dataDir: string): Record<string, string> {
  const path = join(dataDir, ".env");
  if (!existsSync(path)) return {};
  const { DATA_DIR: _ignored, ...vars } = parseEnv(readFileSync(path, "utf8")) as Record<string, string>;
  return vars;
}
