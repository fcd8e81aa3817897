/** Stripe's error shape, and the ids the fake hands out. */
export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
  toJSON() {
    return { error: { type: this.type, message: this.message, ...(this.code ? { code: this.code } : {}), ...(this.param ? { param: this.param } : {}) } };
  }
}

export const missing = (kind: string, id: string) => new StripeError(404, "invalid_request_error", `No such ${kind}: '${id}'`, "resource_missing", "id");

let seq = 0;
export const newId = (prefix: string) => `${prefix}_test${(++seq).toString(36)}${Math.random().toString(36).slice(2, 12)}`;
