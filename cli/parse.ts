import { frCli } from "../src/i18n/fr-cli.ts";
import { InvalidArgumentError } from "commander";
import { BILLING_CYCLES, type BillingCycle, PLANS, type Plan } from "../src/db/schema/index.ts";

/**
 * Argument parsers for commander: a malformed value is a usage error (exit 2)
 * with a French line, before any command touches the database.
 */

export function positiveInt(label: string, max = 1_000_000_000) {
  return (value: string): number => {
    if (!/^\d{1,10}$/.test(value.trim()) || Number(value) < 1 || Number(value) > max) {
      throw new InvalidArgumentError(frCli.notAnInteger(label, max));
    }
    return Number(value);
  };
}

export function onOff(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === "on" || v === "oui") return true;
  if (v === "off" || v === "non") return false;
  throw new InvalidArgumentError("Valeur attendue : on ou off.");
}

/** YYYY-MM-DD (end of that day, UTC) or a full ISO date-time. */
export function isoDate(value: string): Date {
  const v = value.trim();
  const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T23:59:59.999Z`) : /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v) : new Date(NaN);
  if (Number.isNaN(d.getTime())) throw new InvalidArgumentError("Date attendue au format AAAA-MM-JJ.");
  return d;
}

export function planArg(value: string): Plan {
  const v = value.trim().toLowerCase();
  if (!(PLANS as readonly string[]).includes(v)) throw new InvalidArgumentError(`Forfait inconnu : choisissez parmi ${PLANS.join(", ")}.`);
  return v as Plan;
}

export function cycleArg(value: string): BillingCycle {
  const v = value.trim().toLowerCase();
  if (!(BILLING_CYCLES as readonly string[]).includes(v)) throw new InvalidArgumentError("Cycle inconnu : monthly ou annual.");
  return v as BillingCycle;
}
