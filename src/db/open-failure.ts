import { lookup } from "node:dns/promises";
import { dirname, resolve } from "node:path";
import { frOps } from "../i18n/fr-ops.ts";
import { RefusedError } from "../lib/errors.ts";
import { safeUrl } from "./pg/postgres-url.ts";

/**
 * Why a database could not be opened, in one French line with what to do
 * (issue 46): the drivers' own messages are English, and drizzle wraps
 * PostgreSQL's in « Failed query: SELECT to_regclass(…) », which named
 * neither a wrong password, nor a missing database, nor a stopped server.
 * Used wherever a database is opened: the server, every command (src/db/open.ts)
 * and `db copy`.
 */

type DriverError = { code?: string; errno?: string | number; message?: string; cause?: unknown };

/** The driver's own error: drizzle's DrizzleQueryError keeps it as its `cause`. */
function driverError(e: unknown): DriverError {
  let err = e as DriverError;
  while (err && typeof err === "object" && err.cause && typeof err.cause === "object") err = err.cause as DriverError;
  return err ?? {};
}

/** Whether the host has an address: Bun's client says « connection refused » for an unknown host too. */
async function resolves(host: string): Promise<boolean> {
  try {
    await lookup(host);
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL's reason in French, or undefined for an error that is not about reaching the database. */
export async function postgresReason(e: unknown, url: string): Promise<string | undefined> {
  const { code, errno, message } = driverError(e);
  const r = frOps.database.pg;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    return r.badUrl;
  }
  const user = decodeURIComponent(parsed.username) || "postgres";
  if (code === "ERR_POSTGRES_CONNECTION_REFUSED" || code === "ERR_POSTGRES_CONNECTION_FAILED") {
    return (await resolves(parsed.hostname)) ? r.refused : r.unknownHost(parsed.hostname);
  }
  if (code === "ERR_POSTGRES_CONNECTION_TIMEOUT" || code === "ERR_POSTGRES_IDLE_TIMEOUT") return r.timeout;
  if (code === "ERR_POSTGRES_TLS_NOT_AVAILABLE" || code === "ERR_POSTGRES_TLS_UPGRADE_FAILED") return r.tls;
  if (code?.startsWith("ERR_POSTGRES_SASL") || code === "ERR_POSTGRES_AUTHENTICATION_FAILED_PBKDF" || errno === "28P01") return r.password(user);
  if (errno === "28000") return r.role(user);
  if (errno === "3D000") return r.noDatabase;
  if (errno === "42501") return r.permission(user, message ?? "");
  if (errno === "53300") return r.tooMany;
  if (errno === "57P03") return r.starting;
  if (e instanceof TypeError || /invalid url/i.test(message ?? "")) return r.badUrl;
  return undefined;
}

/** SQLite's reason in French (the file's folder named where the fix is there), or undefined. */
export function sqliteReason(e: unknown, path: string): string | undefined {
  const { code, message } = driverError(e);
  const file = resolve(path);
  const r = frOps.database.sqlite;
  if (code === "SQLITE_NOTADB" || /file is not a database/i.test(message ?? "")) return r.notADatabase(file);
  if (code === "SQLITE_CORRUPT") return r.corrupt(file);
  if (code?.startsWith("SQLITE_READONLY") || /readonly database/i.test(message ?? "")) return r.readOnly(file, dirname(file));
  if (code?.startsWith("SQLITE_CANTOPEN") || /unable to open database/i.test(message ?? "")) return r.cannotOpen(file, dirname(file));
  if (code === "ENOTDIR" || code === "EEXIST") return r.notAFolder(file, dirname(file));
  return undefined;
}

/** The error to show for a failure met while opening `target` (PostgreSQL's URL or the SQLite file): a one-line RefusedError, else `e` itself. */
export async function explainOpenFailure(e: unknown, target: { databaseUrl?: string; databasePath: string }): Promise<unknown> {
  if (e instanceof RefusedError) return e;
  if (target.databaseUrl) {
    const reason = await postgresReason(e, target.databaseUrl);
    return reason ? new RefusedError(frOps.database.pgUnreachable(safeUrl(target.databaseUrl), reason)) : e;
  }
  const reason = sqliteReason(e, target.databasePath);
  return reason ? new RefusedError(reason) : e;
}
