import type { LogFormat, LogLevel } from "../../src/config.ts";
import { createLogger, type Logger } from "../../src/lib/log.ts";

/** A logger that keeps lines in memory, for tests that check what was (not) logged. */
export function createMemoryLogger(level: LogLevel = "debug", format: LogFormat = "pretty"): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(
    createLogger(level, (l) => lines.push(l), format),
    { lines },
  );
}
