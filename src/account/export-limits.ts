import { OpenSlots } from "../lib/open-slots.ts";

/** One export at a time per user and per kind: a second one waits for the first (each reads the whole account). */
export function exportSlots(): OpenSlots {
  return new OpenSlots(1);
}
