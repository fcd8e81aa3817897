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

/** Today's readable line: time LEVEL message key=value..., every value on this one line. */
function prettyLine(level: LogLevel, msg: string, o: Record<string, unknown>): string {
  // The request's context last: the event's own fields read first.
  const { request_id, user_id, ...fields } = o;
  const rest = Object.entries({ ...fields, user_id, request_id })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      const text = typeof v === "string" ? v : JSON.stringify(v);
      return `${k}=${/[\s"=]/.test(text ?? "") ? JSON.stringify(text) : text}`;
    })
    .join(" ");
  return `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${msg.replace(/\r?\n/g, "\\n")}${rest ? ` ${rest}` : ""}`;
}

/**
 * pino builds each event (level filter, context mixin, JSON serialisation,
 * which escapes any newline of a value); LOG_FORMAT=json writes its line as
 * is, `pretty` writes today's key=value line from the same event (the fields
 * pino hands to its log formatter, so the JSON is not parsed back). Errors
 * and warnings go to stderr. One line per event either way.
 */
export function createLogger(level: LogLevel, write: (line: string, isError: boolean) => void = defaultWrite, format: LogFormat = "pretty"): Logger {
  let current: { level: LogLevel; msg: string; fields: Record<string, unknown> } = { level: "info", msg: "", fields: {} };
  const isError = () => current.level === "warn" || current.level === "error";
  const stream = {
    write(chunk: string) {
      if (format === "json") write(chunk.endsWith("\n") ? chunk.slice(0, -1) : chunk, isError());
      else write(prettyLine(current.level, current.msg, current.fields), isError());
    },
  };
  const p = pino(
    {
      level,
      base: undefined,
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => {
          current.fields = fields;
          return fields;
        },
      },
      mixin: () => ({ ...context.getStore() }),
    },
    stream,
  );
  const emit =
    (lvl: LogLevel) =>
    (msg: string, fields: Fields = {}) => {
      current = { level: lvl, msg, fields: {} };
      p[lvl](clean(fields), msg);
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
