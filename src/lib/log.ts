import type { LogLevel } from "../config.ts";

export type Fields = Record<string, unknown>;
export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
}

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
/** Field names whose values never reach a log line, whatever a caller passes. */
const SECRET = /pass(word)?|secret|token|authorization|cookie|api_?key|code_?hash/i;

function format(fields: Fields): string {
  return Object.entries(fields)
    .map(([k, v]) => {
      const value = SECRET.test(k) ? "[masqué]" : v instanceof Error ? v.message : v;
      const text = typeof value === "string" ? value : JSON.stringify(value);
      return `${k}=${/[\s"=]/.test(text ?? "") ? JSON.stringify(text) : text}`;
    })
    .join(" ");
}

/** One line per event: time, level, message, key=value fields. Errors go to stderr. */
export function createLogger(level: LogLevel, write: (line: string, isError: boolean) => void = defaultWrite): Logger {
  const min = order[level];
  const emit = (lvl: LogLevel) => (msg: string, fields: Fields = {}) => {
    if (order[lvl] < min) return;
    const rest = format(fields);
    write(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} ${msg}${rest ? ` ${rest}` : ""}`, order[lvl] >= order.warn);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

function defaultWrite(line: string, isError: boolean) {
  (isError ? process.stderr : process.stdout).write(`${line}\n`);
}

/** A logger that keeps lines in memory, for tests that check what was (not) logged. */
export function createMemoryLogger(level: LogLevel = "debug"): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger(level, (l) => lines.push(l)), { lines });
}
