import type { LookupAddress } from "node:dns";
import { lookup as systemLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";

/** Resolves a host name to its addresses (the system's resolver; a test gives its own). */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (host) => systemLookup(host, { all: true, verbatim: true });

export class FetchRefused extends Error {}

export type SafeFetchOptions = {
  isAllowed: (address: string) => boolean;
  resolve: Resolver;
  signal: AbortSignal;
  /** Bytes of body read at most; a longer page is cut there. */
  maxBytes: number;
  maxRedirects: number;
};

export type FetchedPage = { url: string; contentType: string; body: string };

const USER_AGENT = "Mozilla/5.0 (compatible; Unisson/1.0; +recherche web du conseil)";

/**
 * GET a page of the open web without becoming a way into the operator's
 * network: the host is resolved here, every address it resolves to is checked
 * (isAllowed), and the connection goes to the checked address itself (the
 * request's `lookup` returns it: no second resolution a DNS rebinding could
 * answer differently). Redirects are followed by hand, each new address
 * checked the same way; a literal IP in the URL is checked as it is.
 */
export async function safeFetch(start: string, opts: SafeFetchOptions): Promise<FetchedPage> {
  let url = new URL(start);
  for (let hop = 0; hop <= opts.maxRedirects; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new FetchRefused(`protocole refusé : ${url.protocol}`);
    const address = await checkedAddress(url.hostname.replace(/^\[|\]$/g, ""), opts);
    const res = await request(url, address, opts);
    if (res.status >= 300 && res.status < 400 && res.location) {
      url = new URL(res.location, url);
      continue;
    }
    if (res.status >= 400) throw new Error(`HTTP ${res.status}`);
    return { url: url.href, contentType: res.contentType, body: res.body };
  }
  throw new FetchRefused("trop de redirections");
}

/** The one address the connection will use, after every address of the name was checked. */
async function checkedAddress(host: string, opts: SafeFetchOptions): Promise<LookupAddress> {
  const literal = isIP(host);
  const found = literal ? [{ address: host, family: literal }] : await opts.resolve(host);
  if (found.length === 0) throw new Error(`nom introuvable : ${host}`);
  // Every address, not only the one used: a name that also points inside the network is refused whole.
  const refused = found.find((a) => !opts.isAllowed(a.address));
  if (refused) throw new FetchRefused(`adresse non publique refusée : ${host} (${refused.address})`);
  return found[0]!;
}

type RawResponse = { status: number; location: string | null; contentType: string; body: string };

function request(url: URL, address: LookupAddress, opts: SafeFetchOptions): Promise<RawResponse> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: "GET",
        headers: { "user-agent": USER_AGENT, accept: "text/html,application/xhtml+xml,text/plain;q=0.8", "accept-encoding": "identity" },
        signal: opts.signal,
        // The connection goes to the address checked above, whatever the name would resolve to now.
        lookup: ((_host: string, o: { all?: boolean }, cb: (...args: unknown[]) => void) =>
          o?.all ? cb(null, [address]) : cb(null, address.address, address.family)) as unknown as http.RequestOptions["lookup"],
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = typeof res.headers.location === "string" ? res.headers.location : null;
        const contentType = String(res.headers["content-type"] ?? "");
        if (status >= 300) {
          res.destroy();
          return resolve({ status, location, contentType, body: "" });
        }
        if (!/^(text\/html|application\/xhtml\+xml|text\/plain)/i.test(contentType)) {
          res.destroy();
          return reject(new Error(`type de contenu non lu : ${contentType || "inconnu"}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size >= opts.maxBytes) return;
          chunks.push(chunk);
          size += chunk.length;
          // Enough read: a longer page is cut, not refused.
          if (size >= opts.maxBytes) res.destroy();
        });
        const done = () => resolve({ status, location, contentType, body: Buffer.concat(chunks).subarray(0, opts.maxBytes).toString("utf8") });
        res.on("end", done);
        res.on("close", done);
        res.on("error", (e) => (size >= opts.maxBytes ? done() : reject(e)));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
