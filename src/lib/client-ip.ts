import { BlockList, isIP } from "node:net";
import type { Context } from "hono";
import type { AppEnv } from "../deps.ts";

type ServerWithIp = { requestIP?(req: Request): { address: string } | null };

/** One BlockList per list of TRUSTED_PROXIES (node:net matches IPv4, IPv6 and v4-mapped addresses). */
// Module state: parsed once per TRUSTED_PROXIES list (deps.config), keyed by that list.
const lists = new WeakMap<readonly string[], BlockList>();

function trustedProxyList(entries: readonly string[]): BlockList {
  let list = lists.get(entries);
  if (list) return list;
  list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/") as [string, string | undefined];
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  lists.set(entries, list);
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const v = isIP(address);
  return v !== 0 && list.check(address, v === 6 ? "ipv6" : "ipv4");
}

/**
 * The caller's IP for rate limits and logs. The TCP peer (Bun's
 * server.requestIP), unless that peer is one of TRUSTED_PROXIES: then
 * X-Forwarded-For is read from the right, skipping trusted proxies, and the
 * first other hop is the client (a client can prepend anything, never append).
 * An untrusted peer's header is ignored, so behind an unlisted proxy every
 * client shares the proxy's address (docs/SECURITY.md, "Client address").
 * In-process requests (app.request in tests) have no peer: the last hop of
 * the header, else "local".
 */
export function clientIp(c: Context<AppEnv>): string {
  const server = c.env as ServerWithIp | undefined;
  let remote: string | undefined;
  try {
    remote = typeof server?.requestIP === "function" ? server.requestIP(c.req.raw)?.address : undefined;
  } catch {
    remote = undefined;
  }
  const hops = (c.req.header("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim().slice(0, 64))
    .filter(Boolean);
  if (!remote) return hops.at(-1) ?? "local";
  const trusted = trustedProxyList(c.var.deps.config.trustedProxies);
  if (!isTrusted(trusted, remote)) return remote;
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(trusted, hops[i]!)) return hops[i]!;
  return remote;
}
