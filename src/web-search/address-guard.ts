import { BlockList, isIP } from "node:net";

/**
 * Which addresses a page may be read from (docs/SECURITY.md, "Web search"):
 * public ones only, unless the operator allows private ones
 * (WEB_FETCH_ALLOW_PRIVATE). Node's BlockList does the range arithmetic.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96], // NAT64: an IPv4 address behind it
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
  ["fd00:ec2::254", 128], // AWS metadata over IPv6 (inside fc00::/7 already; named for the reader)
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, "ipv6");

/** "::ffff:127.0.0.1" and "::ffff:7f00:1" are 127.0.0.1: the IPv4 address an IPv4-mapped (or -compatible) IPv6 address carries. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = Number.parseInt(hex[1]!, 16);
  const lo = Number.parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

export type PrivateAllowance = boolean | readonly string[];

/** The operator's intranet ranges (WEB_FETCH_ALLOW_PRIVATE as a list). */
function allowList(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split("/");
    const family = isIP(address!) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address!, family);
    else list.addSubnet(address!, Number(prefix), family);
  }
  return list;
}

/** A checker of addresses for the operator's allowance: true when a page may be read from `address`. */
export function addressGuard(allow: PrivateAllowance): (address: string) => boolean {
  if (allow === true) return () => true;
  const allowed = allow === false ? null : allowList(allow);
  return (address) => {
    const family = isIP(address);
    if (family === 0) return false;
    const v4 = family === 6 ? embeddedIpv4(address) : address;
    const [shown, kind] = v4 ? [v4, "ipv4" as const] : [address, "ipv6" as const];
    if (allowed?.check(shown, kind)) return true;
    return !NOT_PUBLIC.check(shown, kind);
  };
}
