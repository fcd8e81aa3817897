import { isIP } from "node:net";
import { z } from "zod";
import { parsePrice, type Price } from "../ai/prices.ts";

/**
 * The zod rules config.ts builds its environment schema from: one per kind of
 * value (text, URL, port, address list, rate, duration, price), each with the
 * French message of a bad value. They read nothing themselves.
 */

export const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

export const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .pipe(z.url({ protocol: /^https?$/ }).optional())
  .optional();

/** "*" or comma-separated origins (scheme, host, port): each read back as its origin. */
export const corsOrigins = z
  .string()
  .trim()
  .transform((v, ctx): "*" | string[] => {
    if (v === "*" || v === "") return "*";
    const origins: string[] = [];
    for (const item of v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)) {
      const url = URL.parse(item);
      if (!url || !/^https?:$/.test(url.protocol)) {
        ctx.addIssue({ code: "custom", message: `« ${item} » n'est pas une origine (https://hôte[:port]) ; « * » les autorise toutes` });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return origins;
  });

export const port = z.coerce
  .number({ error: "doit être un numéro de port (1-65535)" })
  .int("doit être un numéro de port (1-65535)")
  .min(1, "doit être un numéro de port (1-65535)")
  .max(65535, "doit être un numéro de port (1-65535)");

/** "10.0.0.2", "10.0.0.0/8", "::1", "fd00::/8": an address, or an address and a prefix length that fits its family. */
function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split("/");
  const family = isIP(address ?? "");
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export const addressList = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every(isAddressOrCidr), "doit être une liste d'adresses IP ou de CIDR séparés par des virgules");

export const perWindow = z.coerce
  .number({ error: "doit être un nombre entier positif" })
  .int("doit être un nombre entier positif")
  .min(1, "doit être un nombre entier positif")
  .max(1_000_000, "doit valoir au plus 1000000");

export function ms(min: number, max: number) {
  return z.coerce
    .number({ error: "doit être un nombre de millisecondes" })
    .int("doit être un nombre entier de millisecondes")
    .min(min, `doit valoir au moins ${min} ms`)
    .max(max, `doit valoir au plus ${max} ms`);
}

/** AI_PRICE_<KEY>="entrée,sortie", euros per million tokens. */
export const price = z
  .string()
  .trim()
  .transform((v, ctx): Price | undefined => {
    if (v === "") return undefined;
    try {
      return parsePrice(v);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message });
      return z.NEVER;
    }
  })
  .optional();

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** "6h" -> milliseconds. */
export function durationMs(text: string): number {
  return Number(text.slice(0, -1)) * UNIT_MS[text.slice(-1) as keyof typeof UNIT_MS];
}

/** A whole number between `min` and `max` (attachment limits: megabytes, files, pages, tokens). */
export function count(min: number, max: number) {
  return z.coerce
    .number({ error: "doit être un nombre entier" })
    .int("doit être un nombre entier")
    .min(min, `doit valoir au moins ${min}`)
    .max(max, `doit valoir au plus ${max}`);
}

/** "true" or "false" (empty: the default). */
export const onOff = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .pipe(z.enum(["true", "false"], { error: "doit valoir true ou false" }).optional())
  .transform((v) => (v === undefined ? undefined : v === "true"))
  .optional();

/** WEB_FETCH_ALLOW_PRIVATE: "true" (every address), "false", or the addresses and ranges of an intranet a page may be read from. */
export const privateAllowance = z
  .string()
  .trim()
  .transform((v, ctx): boolean | string[] => {
    if (v === "" || v === "false") return false;
    if (v === "true") return true;
    const list = v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.every(isAddressOrCidr)) return list;
    ctx.addIssue({ code: "custom", message: "doit valoir true, false ou une liste d'adresses IP ou de CIDR séparés par des virgules" });
    return z.NEVER;
  })
  .default(false);
