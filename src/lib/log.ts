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

/**
 * stdout lines are gathered and written once per event-loop turn: one write
 * system call per request line cost ~20 % of a request's CPU under load
 * (docs/BENCHMARKS.md, "API throughput"). Warnings and errors go out at once,
 * after what was gathered, so the order holds; the rest goes out on exit.
 * stdout is one per process, hence one buffer per process.
 */
let pending: string[] = [];
let scheduled = false;

function flush() {
  scheduled = false;
  if (pending.length === 0) return;
  const text = pending.join("");
  pending = [];
  process.stdout.write(text);
}
process.on("exit", flush);

function defaultWrite(line: string, isError: boolean) {
  if (isError) {
    flush();
    process.stderr.write(`${line}\n`);
    return;
  }
  pending.push(`${line}\n`);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

/** A logger that keeps lines in memory, for tests that check what was (not) logged. */
export function createMemoryLogger(level: LogLevel = "debug"): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger(level, (l) => lines.push(l)), { lines });
}
