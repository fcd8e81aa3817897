/** French formats for prices and dates (spec section 9: "dates in French format"). */
const euros = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
const dates = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric" });

/** 1199 -> "11,99 €"; whole amounts keep their cents ("119,00 €") so columns line up. */
export function formatCents(cents: number): string {
  return euros.format(cents / 100);
}

/** An ISO date (or anything Date reads) -> "12 mars 2026"; unreadable input is shown as is. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : dates.format(d);
}

/** Fills "{name}" placeholders of an i18n template. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}
