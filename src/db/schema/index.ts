export * from "./users.ts";
export * from "./auth.ts";
export * from "./chat.ts";
export * from "./billing.ts";
export * from "./support.ts";
export * from "./system.ts";
export * from "./security.ts";
