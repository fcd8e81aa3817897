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
