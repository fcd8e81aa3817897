import { type Config, loadConfig } from "../src/config.ts";

/** The options every command shares (declared on the program in cli/index.ts). */
export type GlobalOptions = { json?: boolean; dataDir?: string };

/** Config for a command, with --data-dir taking the place of DATA_DIR. */
export function configFor(opts: GlobalOptions, env: Record<string, string | undefined> = process.env): Config {
  return loadConfig(opts.dataDir ? { ...env, DATA_DIR: opts.dataDir } : env);
}
