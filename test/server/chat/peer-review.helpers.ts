import { updateSettings } from "../../../src/council/council.store.ts";
import type { Db } from "../../../src/db/client.ts";

/** The council's peer review on or off, as the « Modèles » page or `unisson council` set it (the council store). */
export async function setPeerReview(t: { db: Db }, on: boolean): Promise<void> {
  await updateSettings(t.db, { peerReview: on });
}

export async function peerReviewOn(t: { db: Db }): Promise<void> {
  await setPeerReview(t, true);
}
