import type { InferRequestType } from "hono/client";
import { api, unwrap } from "../../lib/api.ts";

export type ChangeRequest = InferRequestType<(typeof api.subscription)["request-change"]["$post"]>["json"];

/** POST /subscription/request-change: a plan change or cancellation, scheduled for the renewal (or at once for an upgrade). */
export const requestChangeCall = (body: ChangeRequest) => unwrap(api.subscription["request-change"].$post({ json: body }));

/** DELETE /subscription/cancel-change: withdraws the scheduled change. */
export const cancelChangeCall = () => unwrap(api.subscription["cancel-change"].$delete());
