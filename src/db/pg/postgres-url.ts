/** postgres:// or postgresql://, the only URLs PostgreSQL is reached by (DATABASE_URL, `db copy --to`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The URL with its password hidden, for messages and logs. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "URL illisible";
  }
}

/**
 * Whether PostgreSQL's client can read the URL: a host, and user and
 * password percent-encoded. A random password with "/", "#" or "?" left as it
 * is cuts the URL short ("Invalid URL" deep in the driver otherwise).
 */
export function readablePostgresUrl(url: string): boolean {
  try {
    const u = new URL(url);
    decodeURIComponent(u.username);
    decodeURIComponent(u.password);
    return u.hostname !== "";
  } catch {
    return false;
  }
}

/** The URL with `password` put in, percent-encoded as PostgreSQL's client reads it (DATABASE_PASSWORD); unchanged without one. */
export function withPassword(url: string, password: string | undefined): string {
  if (!password) return url;
  const u = new URL(url);
  u.password = encodeURIComponent(password);
  return u.toString();
}
