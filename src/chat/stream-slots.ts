import type { Context } from "hono";
import type { Config } from "../config.ts";
import type { AppEnv } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { OpenSlots, releasingStream } from "../lib/open-slots.ts";

/** A user follows a run or two, in a few tabs: 20 is far above that and far below what exhausts file descriptors. */
export const STREAMS_PER_USER = 20;
/** Long enough for a tab to be closed; a stream usually ends with its run. */
const RETRY_AFTER_S = "10";

export function streamSlots(config: Pick<Config, "liveStreamsMax">): OpenSlots {
  return new OpenSlots(STREAMS_PER_USER, config.liveStreamsMax);
}

/**
 * A live event stream held by one place of the user's and of the server's
 * (French 429 past either), given back when the stream ends, whether it
 * finished or its client went away (a closed tab cancels the stream; the
 * request's abort signal is the second witness).
 */
export async function boundedStream(c: Context<AppEnv>, open: () => Promise<ReadableStream<Uint8Array>>): Promise<ReadableStream<Uint8Array>> {
  const slot = c.var.slots.streams.take(String(c.var.user.id));
  if ("refused" in slot) throw new AppError(slot.refused === "key" ? "STREAMS_PER_USER" : "STREAMS_FULL", undefined, { "Retry-After": RETRY_AFTER_S });
  try {
    const stream = await open();
    c.req.raw.signal.addEventListener("abort", slot.release, { once: true });
    return releasingStream(stream, slot.release);
  } catch (error) {
    slot.release();
    throw error;
  }
}
