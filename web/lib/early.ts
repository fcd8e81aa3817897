/**
 * API calls started before React mounts (a stored session: the app screen is
 * coming). The hook that needs the answer takes the call once; after that, or
 * when nothing was started, it calls the API itself.
 */
const started = new Map<string, Promise<unknown>>();

export function startEarly<T>(key: string, call: () => Promise<T>): void {
  const p = call();
  p.catch(() => {}); // Whoever takes it handles the failure; until then it is not "unhandled".
  started.set(key, p);
}

export function takeEarly<T>(key: string, call: () => Promise<T>): Promise<T> {
  const p = started.get(key) as Promise<T> | undefined;
  started.delete(key);
  return p ?? call();
}
