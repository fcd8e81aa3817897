import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import type { LogFormat, LogLevel } from "../config.ts";

export type Fields = Record<string, unknown>;
export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
}

/** Field names whose values never reach a log line, whatever a caller passes. */
const SECRET = /pass(word)?|secret|token|authorization|cookie|api_?key|code_?hash/i;

/**
 * What every line of one request carries (X-Request-Id, and the user once the
 * session is read), without passing it down: the request's async context.
 */
export type LogContext = { request_id?: string; user_id?: number };
// Module state: an AsyncLocalStorage is per request by nature; one store serves every app.
const context = new AsyncLocalStorage<LogContext>();

export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return context.run(ctx, fn);
}

/** Adds the signed-in user to the current request's lines (auth middleware). */
export function setLogUser(userId: number): void {
  const ctx = context.getStore();
  if (ctx) ctx.user_id = userId;
}

/** Masked secrets; errors as their message; everything else as given. */
function clean(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    out[k] = SECRET.test(k) ? "[masqué]" : v instanceof Error ? v.message : v;
  }
  return out;
}

/** A value that would break the key=value reading: written as a JSON string. */
const NEEDS_QUOTES = /[\s"=]/;
const LABEL: Record<LogLevel, string> = { debug: "DEBUG", info: "INFO ", warn: "WARN ", error: "ERROR" };

/** Today's readable line: time LEVEL message key=value..., every value on this one line. */
function prettyLine(level: LogLevel, msg: string, o: Record<string, unknown>): string {
  let rest = "";
  const add = (k: string, v: unknown) => {
    if (v === undefined) return;
    const text = typeof v === "string" ? v : JSON.stringify(v);
    rest += ` ${k}=${NEEDS_QUOTES.test(text ?? "") ? JSON.stringify(text) : text}`;
  };
  // The request's context last: the event's own fields read first.
  for (const k in o) if (k !== "request_id" && k !== "user_id") add(k, o[k]);
  add("user_id", o.user_id);
  add("request_id", o.request_id);
  return `${new Date().toISOString()} ${LABEL[level]} ${msg.replace(/\r?\n/g, "\\n")}${rest}`;
}

/** The levels in order: a logger writes its own level and those above. */
const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

const isError = (level: LogLevel) => level === "warn" || level === "error";

/**
 * LOG_FORMAT=json: pino builds each line (context mixin, JSON serialisation,
 * which escapes any newline of a value). `pretty` writes today's key=value
 * line from the same fields (the request's context, then the event's own
 * fields over it), without pino: serialising a JSON line only to throw it away
 * cost ~1.5 µs a request line (docs/BENCHMARKS.md, "Per-request cost").
 * A level below the logger's costs nothing: its fields are not even cleaned.
 * Errors and warnings go to stderr. One line per event either way.
 */
export function createLogger(level: LogLevel, write: (line: string, isError: boolean) => void = defaultWrite, format: LogFormat = "pretty"): Logger {
  const line =
    format === "json"
      ? jsonLines(level, write)
      : (lvl: LogLevel, msg: string, fields: Fields) => write(prettyLine(lvl, msg, { ...context.getStore(), ...fields }), isError(lvl));
  const emit = (lvl: LogLevel) =>
    RANK[lvl] < RANK[level]
      ? () => {}
      : (msg: string, fields: Fields = {}) => {
          line(lvl, msg, clean(fields));
        };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** pino, writing each JSON line as it is (without its newline) on the right stream. */
function jsonLines(level: LogLevel, write: (line: string, isError: boolean) => void) {
  let current: LogLevel = "info";
  const stream = {
    write(chunk: string) {
      write(chunk.endsWith("\n") ? chunk.slice(0, -1) : chunk, isError(current));
    },
  };
  const p = pino(
    {
      level,
      base: undefined,
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => ({ ...context.getStore() }),
    },
    stream,
  );
  return (lvl: LogLevel, msg: string, fields: Fields) => {
    current = lvl;
    p[lvl](fields, msg);
  };
}

/**
 * stdout lines are gathered and written once per event-loop turn: one write
 * system call per request line cost ~20 % of a request's CPU under load
 * (docs/BENCHMARKS.md, "API throughput"). Warnings and errors go out at once,
 * after what was gathered, so the order holds; the rest goes out on exit.
 * stdout is one per process, hence one buffer per process.
 */
// Module state: stdout is one per process, hence this one buffer.
let pending: string[] = [];
let scheduled = false;

function flush() {
  scheduled = false;
  if (pending.length === 0) return;
  const text = pending.join("");
  pending = [];
  process.stdout.write(text);
}
// Module state: what the buffer holds goes out when the process ends.
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
