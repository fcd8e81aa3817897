import { AppError } from "../lib/errors.ts";
import { COUNCIL_TEXTS, MAX_ENABLED, MIN_ENABLED } from "./council.schemas.ts";

/** What the rules look at in a member: its name, whether it answers, whether (and where) it writes the synthesis. */
export type MemberState = { name: string; enabled: boolean; synthesisRank: number | null };

/** Names are compared as a reader would: « GPT-5 » and « gpt-5 » are the same model to a user. */
export const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase("fr") === b.trim().toLocaleLowerCase("fr");

export function refuseTakenName(members: readonly MemberState[], name: string, except?: string): void {
  if (members.some((m) => sameName(m.name, name) && !(except !== undefined && sameName(m.name, except)))) {
    throw new AppError("COUNCIL_NAME_TAKEN", COUNCIL_TEXTS.nameTaken(name.trim()));
  }
}

export function memberOrFail<T extends MemberState>(members: readonly T[], name: string): T {
  const m = members.find((x) => sameName(x.name, name));
  if (!m) throw new AppError("COUNCIL_MEMBER_NOT_FOUND", COUNCIL_TEXTS.unknownMember(name.trim()));
  return m;
}

/**
 * The council a change would leave, checked before it is written: 2 to 8
 * members answer (fewer is the maintenance rule's outage, more is a cost no
 * one chose), and at least one enabled member writes the synthesis.
 */
export function checkCouncil(after: readonly MemberState[], changed?: string): void {
  const enabled = after.filter((m) => m.enabled);
  if (enabled.length < MIN_ENABLED) throw new AppError("VALIDATION", COUNCIL_TEXTS.tooFewEnabled);
  if (enabled.length > MAX_ENABLED) throw new AppError("VALIDATION", COUNCIL_TEXTS.tooManyEnabled);
  if (!enabled.some((m) => m.synthesisRank !== null)) {
    throw new AppError("VALIDATION", changed ? COUNCIL_TEXTS.lastSynthesiser(changed) : COUNCIL_TEXTS.synthesisers);
  }
}

/** The synthesisers as ordered: each a known, enabled member; returns the stored names in that order. */
export function checkSynthesisers(members: readonly MemberState[], names: readonly string[]): string[] {
  return names.map((n) => {
    const m = memberOrFail(members, n);
    if (!m.enabled) throw new AppError("VALIDATION", COUNCIL_TEXTS.synthesiserDisabled(m.name));
    return m.name;
  });
}
