import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import type { LogFormat, LogLevel } from "../config.ts";

export type Fields = Record<string, unknown>;

/** The request line's fields (request-pipeline.ts), in the order it shows them. */
export type RequestLine = { method: string; path: string; status: number; ms: number; user_id: number | undefined; request_id: string };

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  /** The line of each request: the same line as `debug` or `info` of "http" with these fields. */
  request(level: "debug" | "info", fields: RequestLine): void;
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

// Module state: the verdict of SECRET for each field name met; names come from the code, so the map stays small.
const secretNames = new Map<string, boolean>();

function isSecretName(k: string): boolean {
  let secret = secretNames.get(k);
  if (secret === undefined) secretNames.set(k, (secret = SECRET.test(k)));
  return secret;
}

/**
 * Whether clean() would change anything: most lines (the request line) have
 * nothing to mask, and are written as given. An undefined value stays: both
 * formats leave it out of the line.
 */
function needsCleaning(fields: Fields): boolean {
  for (const k in fields) if (fields[k] instanceof Error || isSecretName(k)) return true;
  return false;
}

/** Masked secrets; errors as their message; everything else as given. */
function clean(fields: Fields): Fields {
  if (!needsCleaning(fields)) return fields;
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    out[k] = isSecretName(k) ? "[masqué]" : v instanceof Error ? v.message : v;
  }
  return out;
}

/** A value that would break the key=value reading: written as a JSON string. */
const NEEDS_QUOTES = /[\s"=]/;
const LABEL: Record<LogLevel, string> = { debug: "DEBUG", info: "INFO ", warn: "WARN ", error: "ERROR" };

/** ` key=value`, the value quoted when it would break the reading; nothing for undefined. */
function pair(k: string, v: unknown): string {
  if (v === undefined) return "";
  if (typeof v === "number" && Number.isFinite(v)) return ` ${k}=${v}`;
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return ` ${k}=${NEEDS_QUOTES.test(text ?? "") ? JSON.stringify(text) : text}`;
}

// Module state: the last millisecond's timestamp, shared by every line written in it (one process, one clock).
let stampMs = 0;
let stamp = "";

/** The line's ISO time, made once per millisecond: under load several lines share one. */
function timestamp(): string {
  const ms = Date.now();
  if (ms !== stampMs) {
    stampMs = ms;
    stamp = new Date(ms).toISOString();
  }
  return stamp;
}

/**
 * Today's readable line: time LEVEL message key=value..., every value on
 * this one line; the event's own fields first, then the user and the
 * request id (the event's, or else its request's context).
 */
function prettyLine(level: LogLevel, msg: string, fields: Fields, ctx: LogContext | undefined): string {
  let rest = "";
  for (const k in fields) if (k !== "request_id" && k !== "user_id") rest += pair(k, fields[k]);
  rest += pair("user_id", fields.user_id ?? ctx?.user_id);
  rest += pair("request_id", fields.request_id ?? ctx?.request_id);
  return `${timestamp()} ${LABEL[level]} ${msg.includes("\n") ? msg.replace(/\r?\n/g, "\\n") : msg}${rest}`;
}

/** A string value as pair() writes it. */
const text = (v: string) => (NEEDS_QUOTES.test(v) ? JSON.stringify(v) : v);

/**
 * prettyLine of the request line ("http", its fields, no request context):
 * the same text in one template, without the generic walk over the fields
 * and their cleaning (none of its names is a secret's, its path is masked
 * already). It is written once per request: ~0.25 µs less than prettyLine
 * (docs/BENCHMARKS.md, "Fourth round"); a test compares the two.
 */
function prettyRequestLine(level: LogLevel, f: RequestLine): string {
  const user = f.user_id === undefined ? "" : pair("user_id", f.user_id);
  return `${timestamp()} ${LABEL[level]} http method=${text(f.method)} path=${text(f.path)} status=${f.status} ms=${f.ms}${user} request_id=${text(f.request_id)}`;
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
      : (lvl: LogLevel, msg: string, fields: Fields) => write(prettyLine(lvl, msg, fields, context.getStore()), isError(lvl));
  const emit = (lvl: LogLevel) =>
    RANK[lvl] < RANK[level]
      ? () => {}
      : (msg: string, fields: Fields = {}) => {
          line(lvl, msg, clean(fields));
        };
  const request = (lvl: "debug" | "info", fields: RequestLine) => {
    if (RANK[lvl] < RANK[level]) return;
    if (format === "json") line(lvl, "http", fields);
    else write(prettyRequestLine(lvl, fields), false);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error"), request };
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
