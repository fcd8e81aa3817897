import { randomBytes } from "node:crypto";
import type { ModelDef } from "../ai/registry.ts";
import type { ImageInput } from "../ai/types.ts";
import type { MessageRow } from "../chat/chat.queries.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { modelImages, textFileBytes } from "./attachments.queries.ts";
import { textOf } from "./attachments.service.ts";
import { attachmentsOfQuestions } from "./message-attachments.ts";
import { pictureMime } from "./picture-mime.ts";
import { documentsForRun } from "./document-text.ts";

/** What a run's models get from the files of its turn (final-processing.ts, consolidate.ts). */
export type RunDocuments = {
  /** The documents' text, given before the question to every model. */
  text: string;
  /** The pictures, for the models whose `vision` is true only. */
  images: ImageInput[];
  /** Where reading stopped, told in the answer. */
  notices: string[];
  /** The files' names, for the synthesiser. */
  names: string[];
};

/** The files sent with the turn's questions, as the run gives them to the models; null when there are none. */
export async function documentsOfTurn(deps: Deps, user: Pick<UserRow, "subscriptionType">, turn: readonly MessageRow[]): Promise<RunDocuments | null> {
  // A question asked again (a version) reads the files of the question it replaces (message-attachments.ts).
  const listed = [...(await attachmentsOfQuestions(deps.db, turn))].flatMap(([, own]) => own);
  if (listed.length === 0) return null;
  const bytes = await textFileBytes(
    deps.db,
    listed.filter((f) => f.text === null).map((f) => f.id),
  );
  const files = listed.map((f) => (bytes.has(f.id) ? { ...f, text: textOf(f, bytes.get(f.id)) } : f));
  const { tokenBudget, pagesByPlan } = deps.config.attachments;
  const docs = documentsForRun(files, { tokenBudget, pages: pagesByPlan[user.subscriptionType] }, randomBytes(6).toString("hex"));
  const images = (await modelImages(deps.db, docs.imageIds)).flatMap((i) =>
    i.image ? [{ mime: pictureMime(i.image), base64: i.image.toString("base64") }] : [],
  );
  return { text: docs.text, images, notices: docs.notices, names: docs.names };
}

/** The question as the models read it: the documents first, then what the user asked. */
export function questionWithDocuments(question: string, docs: RunDocuments | null): string {
  if (!docs?.text) return question;
  return `${docs.text}\n\nQuestion de l'utilisateur :\n${question}`;
}

/** The question as the synthesiser reads it: the files named, not their text (the answers say what they read). */
export function questionForSynthesis(question: string, docs: RunDocuments | null): string {
  if (!docs) return question;
  return `${question}\n\n(Documents joints, lus par chaque IA : ${docs.names.map((n) => `« ${n} »`).join(", ")})`;
}

/** « Mistral Large ne lit pas les images » for each model asked that got only the text of the pictures. */
export function blindNotices(models: readonly ModelDef[], docs: RunDocuments | null): string[] {
  if (!docs?.images.length) return [];
  return models.filter((m) => !m.vision).map((m) => `${m.name} ne lit pas les images : il n'a reçu que le texte de la question et des documents.`);
}
