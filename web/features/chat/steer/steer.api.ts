import { api, unwrap } from "../../../lib/api.ts";

const param = (id: number) => ({ id: String(id) });

/** POST /conversation/{id}/stop: « Arrêter ». */
export const stopRun = (id: number) => unwrap(api.unisson.conversation[":id"].stop.$post({ param: param(id) }));

/** POST /conversation/{id}/edit: the last question, edited, as a new version (then /process). */
export const editQuestion = (id: number, message: string) => unwrap(api.unisson.conversation[":id"].edit.$post({ param: param(id), json: { message } }));

/** POST /conversation/{id}/regenerate: « Nouvelle réponse » (then /process). */
export const regenerateAnswer = (id: number) => unwrap(api.unisson.conversation[":id"].regenerate.$post({ param: param(id) }));

/** PUT /conversation/{id}/versions/{group}: shows another version of a question. */
export const showVersion = (id: number, group: number, version: number) =>
  unwrap(api.unisson.conversation[":id"].versions[":group"].$put({ param: { id: String(id), group: String(group) }, json: { version } }));

export type VersionInfo = Awaited<ReturnType<typeof showVersion>>["versions"][number];
