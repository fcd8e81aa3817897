import type { LooseRunEvent as RunEvent } from "../contracts/run-events.ts";
import { type Db, dialectOf } from "./client.ts";
import { listenRunText, notifyRunText } from "./pg/run-text-channel.ts";
import { RunFollowers } from "./run-followers.ts";

/**
 * How the models' text pieces of a run reach the streams that follow it from
 * another server (docs/DECISIONS.md, "Each model writing, live"): on
 * PostgreSQL the server carrying the run out NOTIFies each flush of pieces
 * (at most one every 100 ms per run, model-texts.ts), split to stay under
 * PostgreSQL's 8000-byte payload limit, and every server LISTENs once the
 * first of its streams follows such a run. Nothing is written to a table for
 * them (the row only gets a checkpoint of the texts every second,
 * run-checkpoints.ts). On SQLite one server carries out every run: nothing to relay.
 */
export type RunTextRelay = {
  publish(runId: number, pieces: RunEvent[]): void;
  /** Calls `onPiece` with each `model_delta` of the run told by another server; returns the unfollow. */
  follow(runId: number, onPiece: (e: RunEvent) => void): () => void;
};

/** PostgreSQL refuses a payload of 8000 bytes or more; a margin for the channel's own bytes. */
export const MAX_PAYLOAD_BYTES = 7_900;

type Piece = [id: number, model: string, from: number, text: string];

const bytes = (s: string) => Buffer.byteLength(s, "utf8");
const payloadOf = (runId: number, pieces: Piece[]) => JSON.stringify({ r: runId, p: pieces });

/** A piece too long for one payload, cut in two (the second from where the first ends), again until each fits. */
function fitting(runId: number, piece: Piece): Piece[] {
  if (bytes(payloadOf(runId, [piece])) <= MAX_PAYLOAD_BYTES || piece[3].length < 2) return [piece];
  const [id, model, from, text] = piece;
  const half = Math.ceil(text.length / 2);
  return [...fitting(runId, [id, model, from, text.slice(0, half)]), ...fitting(runId, [id, model, from + half, text.slice(half)])];
}

/** The payloads of one flush: as few as fit, in order. */
export function textPayloads(runId: number, events: RunEvent[]): string[] {
  const out: string[] = [];
  let batch: Piece[] = [];
  for (const e of events) {
    const d = e.data as { model: string; from: number; text: string };
    for (const piece of fitting(runId, [e.id, d.model, d.from, d.text])) {
      if (batch.length > 0 && bytes(payloadOf(runId, [...batch, piece])) > MAX_PAYLOAD_BYTES) {
        out.push(payloadOf(runId, batch));
        batch = [];
      }
      batch.push(piece);
    }
  }
  if (batch.length > 0) out.push(payloadOf(runId, batch));
  return out;
}

function parsed(payload: string): { runId: number; events: RunEvent[] } | null {
  try {
    const { r, p } = JSON.parse(payload) as { r: number; p: Piece[] };
    if (!Number.isInteger(r) || !Array.isArray(p)) return null;
    return { runId: r, events: p.map(([id, model, from, text]) => ({ id, type: "model_delta", data: { model, from, text } })) };
  } catch {
    return null;
  }
}

export function createRunTextRelay(db: Db): RunTextRelay {
  if (dialectOf(db) !== "postgres") return { publish: () => {}, follow: () => () => {} };
  // Not listening (the database is down): followers get the texts from the checkpoints.
  const followers: RunFollowers<(e: RunEvent) => void> = new RunFollowers(() =>
    listenRunText(db, (payload) => {
      const told = parsed(payload);
      if (!told) return;
      for (const listener of followers.of(told.runId)) for (const e of told.events) listener(e);
    }),
  );
  // One NOTIFY after the other: sent on different pooled connections at once, two could arrive out of order.
  let sending: Promise<unknown> = Promise.resolve();
  return {
    publish(runId, pieces) {
      for (const payload of textPayloads(runId, pieces)) {
        // A piece lost (the database busy) is only live text: the next checkpoint and the final answer carry it.
        sending = sending.then(() => notifyRunText(db, payload)).catch(() => {});
      }
    },
    follow: (runId, onPiece) => followers.add(runId, onPiece),
  };
}
