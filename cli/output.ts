import type { GlobalOptions } from "./options.ts";

/** Prints JSON with --json, else the human text. */
export function print(opts: GlobalOptions, data: unknown, human: () => string): void {
  console.log(opts.json ? JSON.stringify(data, null, 2) : human());
}

/** An aligned text table with French headers. */
export function table(headers: string[], rows: Array<Array<string | number | boolean | null | undefined>>): string {
  const cells = rows.map((r) => r.map((v) => (v === null || v === undefined ? "" : typeof v === "boolean" ? (v ? "oui" : "non") : String(v))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r
      .map((v, i) => v.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/** A date as a French reader expects it (jj/mm/aaaa hh:mm, local time); empty when unset. */
export function dateFr(d: Date | string | null | undefined): string {
  if (!d) return "";
  return new Date(d).toLocaleString("fr-FR", { dateStyle: "short", timeStyle: "short" });
}

/** AI calls cost fractions of a cent: four decimals, French format. */
export const preciseEuros = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", minimumFractionDigits: 4, maximumFractionDigits: 4 });
