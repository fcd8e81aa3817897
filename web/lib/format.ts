import { fr } from "../i18n/fr.ts";

/** m:ss, as in 'Renvoyer dans 0:59'. */
export function minSec(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const dateFmt = new Intl.DateTimeFormat("fr-FR", { day: "2-digit", month: "2-digit", year: "numeric" });
const dateTimeFmt = new Intl.DateTimeFormat("fr-FR", { dateStyle: "short", timeStyle: "short" });

/** Dates in French format (docs/PRODUCT.md#constants): 21/11/2025. */
export function frDate(value: string | number | Date): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? "" : dateFmt.format(d);
}

const longDateFmt = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric" });

/** "12 mars 2026", for renewal and scheduled-change dates; unreadable input is shown as is. */
export function frLongDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : longDateFmt.format(d);
}

/** A calendar day as the API writes it ("2026-11-26") in French format (26/11/2026), whatever the browser's time zone. */
export function frDay(isoDay: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : isoDay;
}

export function frDateTime(value: string | number | Date): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? "" : dateTimeFmt.format(d);
}

/** 'il y a 5 minutes', 'hier', then a French date after a week. */
export function relativeTime(value: string | number | Date, now = Date.now()): string {
  const t = new Date(value).getTime();
  if (Number.isNaN(t)) return "";
  const minutes = Math.floor((now - t) / 60_000);
  if (minutes < 1) return fr.time.now;
  if (minutes < 60) return fr.time.minutes(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return fr.time.hours(hours);
  const days = Math.floor(hours / 24);
  if (days === 1) return fr.time.yesterday;
  if (days < 7) return fr.time.days(days);
  return frDate(t);
}

/** Fills "{name}" placeholders of an i18n template. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}
