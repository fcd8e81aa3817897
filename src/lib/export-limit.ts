import type { Context } from "hono";
import type { AppEnv } from "../deps.ts";
import { HOUR } from "./clock.ts";
import { AppError } from "./errors.ts";
import { OpenSlots, releasingStream } from "./open-slots.ts";

/** Exports read a whole account or conversation: a few an hour is plenty for a person, and bounds what a script can make the server read. */
export const EXPORTS_PER_HOUR = 5;
/** A running export usually ends within seconds. */
const BUSY_RETRY_AFTER_S = "30";

/** One export of each kind at a time per user (this process: an export is a connection it holds). */
export function exportSlots(): OpenSlots {
  return new OpenSlots(1);
}

/**
 * An export (`kind`: the data export or a conversation's) under its limits:
 * one at a time per user and kind (429 "déjà en cours" while the previous
 * one is still being read), at most EXPORTS_PER_HOUR an hour per user and
 * kind (429 with Retry-After; counted in the rate-limit store, so shared by
 * servers and kept over restarts). The place is given back when the stream
 * ends, fails or its client goes away; an export that does not open (404)
 * does not count.
 */
export async function limitedExport<T extends { body: ReadableStream<Uint8Array> }>(
  c: Context<AppEnv>,
  kind: "data" | "conversation",
  open: () => Promise<T>,
): Promise<T> {
  const userId = String(c.var.user.id);
  const slot = c.var.slots.exports.take(`${kind}:${userId}`);
  if ("refused" in slot) throw new AppError("EXPORT_IN_PROGRESS", undefined, { "Retry-After": BUSY_RETRY_AFTER_S });
  const store = c.var.rateLimits;
  const key = `export:${kind}:${userId}`;
  try {
    const hit = await store.hit(key, HOUR);
    if (hit.count > EXPORTS_PER_HOUR) {
      const seconds = Math.max(1, Math.ceil((hit.resetAt - store.clock.now().getTime()) / 1000));
      throw new AppError("EXPORT_LIMITED", undefined, { "Retry-After": String(seconds) });
    }
    try {
      const file = await open();
      c.req.raw.signal.addEventListener("abort", slot.release, { once: true });
      return { ...file, body: releasingStream(file.body, slot.release) };
    } catch (error) {
      await store.undo(key);
      throw error;
    }
  } catch (error) {
    slot.release();
    throw error;
  }
}
