import { join } from "node:path";
import { z } from "zod";
import { DEFAULT_PRICES, type Price } from "./ai/prices.ts";
import { ARGON2_MEMORY_MIB_DEFAULT, ARGON2_MEMORY_MIB_MIN } from "./auth/password-hash.ts";
import { addressList, corsOrigins, count, durationMs, ms, optionalText, optionalUrl, perWindow, port, price } from "./config/env-fields.ts";
import { webSearchConfig, webSearchEnv } from "./config/web-search.ts";
import { isPostgresUrl, readablePostgresUrl, safeUrl, withPassword } from "./db/pg/postgres-url.ts";
import type { BuiltinKey } from "./db/schema/council.ts";

/**
 * The only reader of process.env. Every variable of shared/design/CONFIG.md is
 * validated here once at start; a bad value becomes one ConfigError line that
 * names the variable (main.ts prints it and exits 1).
 */

export class ConfigError extends Error {}

/** The data folder when neither DATA_DIR nor --data-dir names one (relative to the working directory). */
export const DEFAULT_DATA_DIR = "./data";

/** Model ids default to real current ids of each family; operators override them per model. */
export const MODEL_ENV_DEFAULTS = {
  MODEL_GPT4: "gpt-4o",
  MODEL_CLAUDE_OPUS: "claude-opus-4-1-20250805",
  MODEL_CLAUDE_HAIKU: "claude-3-haiku-20240307",
  MODEL_GEMINI_PRO: "gemini-2.5-pro",
  MODEL_MISTRAL_LARGE: "mistral-large-latest",
  MODEL_SONAR_PRO: "sonar-pro",
} as const;

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().trim().min(1).default(DEFAULT_DATA_DIR),
  DATABASE_PATH: optionalText,
  // CONFIG.md's PostgreSQL switch: set, the server and the CLI use it and DATA_DIR/DATABASE_PATH name no database.
  DATABASE_URL: optionalText
    .refine((v) => v === undefined || isPostgresUrl(v), {
      error:
        "doit être une URL postgres://utilisateur:motdepasse@hôte:port/base (ou postgresql://) ; sans DATABASE_URL, Unisson utilise SQLite (DATA_DIR, DATABASE_PATH).",
    })
    .refine((v) => v === undefined || readablePostgresUrl(v), {
      error:
        "n'est pas une URL lisible : encodez les caractères spéciaux du mot de passe (/ ? # @ % espace, par exemple avec encodeURIComponent), ou choisissez un mot de passe de lettres et de chiffres.",
    }),
  // The password apart from DATABASE_URL, any characters, encoded into the URL here (a random one often holds "/", "#" or "@").
  DATABASE_PASSWORD: optionalText,
  ADMIN_EMAIL: z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v.toLowerCase()))
    .pipe(z.email({ error: "doit être une adresse e-mail valide" }).optional())
    .optional(),
  ADMIN_PASSWORD: optionalText,
  TWO_FACTOR: z.enum(["off", "admins", "all"], { error: "doit valoir off, admins ou all" }).default("admins"),
  SMTP_URL: z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(z.url({ protocol: /^smtps?$/, error: "doit être une URL smtp:// ou smtps://" }).optional())
    .optional(),
  MAIL_FROM: z.string().trim().min(1).default("Unisson <no-reply@localhost>"),
  SUPPORT_EMAIL: z.string().trim().min(1).default("support@localhost"),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalUrl,
  GOOGLE_API_KEY: optionalText,
  GOOGLE_BASE_URL: optionalUrl,
  MISTRAL_API_KEY: optionalText,
  MISTRAL_BASE_URL: optionalUrl,
  PERPLEXITY_API_KEY: optionalText,
  PERPLEXITY_BASE_URL: optionalUrl,
  MODEL_GPT4: z.string().trim().min(1).default(MODEL_ENV_DEFAULTS.MODEL_GPT4),
  MODEL_CLAUDE_OPUS: z.string().trim().min(1).default(MODEL_ENV_DEFAULTS.MODEL_CLAUDE_OPUS),
  MODEL_CLAUDE_HAIKU: z.string().trim().min(1).default(MODEL_ENV_DEFAULTS.MODEL_CLAUDE_HAIKU),
  MODEL_GEMINI_PRO: z.string().trim().min(1).default(MODEL_ENV_DEFAULTS.MODEL_GEMINI_PRO),
  MODEL_MISTRAL_LARGE: z.string().trim().min(1).default(MODEL_ENV_DEFAULTS.MODEL_MISTRAL_LARGE),
  MODEL_SONAR_PRO: z.string().trim().min(1).default(MODEL_ENV_DEFAULTS.MODEL_SONAR_PRO),
  AI_TIMEOUT_MS: z.coerce
    .number({ error: "doit être un nombre de millisecondes" })
    .int("doit être un nombre entier de millisecondes")
    .min(100, "doit valoir au moins 100 ms")
    .max(600_000, "doit valoir au plus 600000 ms")
    .default(90_000),
  AI_SOFT_DEADLINE_MS: ms(100, 600_000).default(20_000),
  AI_QUORUM: z.coerce
    .number({ error: "doit être un nombre entier" })
    .int("doit être un nombre entier")
    .min(2, "doit valoir au moins 2")
    .max(6, "doit valoir au plus 6")
    .default(3),
  AI_BUDGET_MS: ms(500, 1_800_000).default(120_000),
  MODERATION_ON_OUTAGE: z.enum(["local", "refuse"], { error: "doit valoir local ou refuse" }).default("local"),
  AI_PRICE_GPT4: price,
  AI_PRICE_CLAUDE_OPUS: price,
  AI_PRICE_CLAUDE_HAIKU: price,
  AI_PRICE_GEMINI_PRO: price,
  AI_PRICE_MISTRAL_LARGE: price,
  AI_PRICE_SONAR_PRO: price,
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  // Seals the API keys of council members (src/council/secret-box.ts); unset on SQLite, a key file in DATA_DIR does it.
  SECRET_KEY: optionalText.pipe(z.string().min(32, "doit compter au moins 32 caractères (par exemple `openssl rand -base64 32`)").optional()),
  STRIPE_API_BASE: optionalUrl,
  TRUSTED_PROXIES: addressList.default(["127.0.0.1/8", "::1"]),
  CHAT_LIMIT_PER_10_MIN: perWindow.default(20),
  CHAT_LIMIT_PER_DAY: perWindow.default(100),
  TRIAL_CHAT_LIMIT_PER_DAY: perWindow.default(30),
  LIVE_STREAMS_MAX: perWindow.default(1000),
  // Bun's own variable (read by Bun when the process starts); the server reads it too, to know its HTTP client's cap.
  BUN_CONFIG_MAX_HTTP_REQUESTS: count(1, 65_535).default(256),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"], { error: "doit valoir debug, info, warn ou error" }).default("info"),
  LOG_FORMAT: z.enum(["pretty", "json"], { error: "doit valoir pretty ou json" }).default("pretty"),
  METRICS_TOKEN: optionalText,
  API_CORS_ORIGINS: corsOrigins.default("*"),
  BACKUP_INTERVAL: optionalText.pipe(
    z
      .string()
      .regex(/^\d+(m|h|d)$/, "doit être une durée comme 30m, 6h ou 1d")
      .optional(),
  ),
  ATTACHMENT_MAX_MB: count(1, 100).default(10),
  ATTACHMENTS_PER_MESSAGE: count(1, 20).default(5),
  ATTACHMENT_TOKEN_BUDGET: count(1_000, 1_000_000).default(30_000),
  ATTACHMENT_PAGES_TRIAL: count(1, 10_000).default(20),
  ATTACHMENT_PAGES_BASIC: count(1, 10_000).default(100),
  ATTACHMENT_PAGES_PRO: count(1, 10_000).default(300),
  ATTACHMENT_EXTRACT_TIMEOUT_MS: ms(500, 600_000).default(20_000),
  ATTACHMENT_EXTRACT_MAX_MB: count(64, 8_192).default(1024),
  ATTACHMENT_READERS: count(0, 64).default(0),
  ATTACHMENT_QUOTA_MB_TRIAL: count(1, 1_000_000).default(50),
  ATTACHMENT_QUOTA_MB_BASIC: count(1, 1_000_000).default(500),
  ATTACHMENT_QUOTA_MB_PRO: count(1, 1_000_000).default(2000),
  // Memory of each argon2id hash or check (src/auth/password-hash.ts): OWASP's floor to what a server can spare.
  ARGON2_MEMORY_MIB: count(ARGON2_MEMORY_MIB_MIN, 1024).default(ARGON2_MEMORY_MIB_DEFAULT),
  // Web search for the council (issue 45): src/config/web-search.ts.
  ...webSearchEnv,
  BACKUP_KEEP: z.coerce
    .number({ error: "doit être un nombre entier" })
    .int("doit être un nombre entier")
    .min(1, "doit valoir au moins 1")
    .max(10_000, "doit valoir au plus 10000")
    .default(28),
});

const checkedEnv = envSchema.refine((e) => !e.DATABASE_PASSWORD || e.DATABASE_URL, {
  path: ["DATABASE_PASSWORD"],
  error: "ne sert qu'avec DATABASE_URL (postgres://utilisateur@hôte:port/base, sans mot de passe) : définissez-la aussi.",
});

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "pretty" | "json";

function buildConfig(e: z.infer<typeof envSchema>) {
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const databaseUrl = e.DATABASE_URL && withPassword(e.DATABASE_URL, e.DATABASE_PASSWORD);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: e.DATA_DIR,
    databasePath: e.DATABASE_PATH ?? join(e.DATA_DIR, "unisson.db"),
    /** PostgreSQL instead of SQLite (databasePath is then unused); undefined on SQLite. */
    databaseUrl,
    /** The database as logs and messages name it: the SQLite file, or PostgreSQL's URL without its password. */
    databaseLabel: databaseUrl ? safeUrl(databaseUrl) : (e.DATABASE_PATH ?? join(e.DATA_DIR, "unisson.db")),
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD },
    /** What seals the council members' API keys; undefined: the key file DATA_DIR/secret.key (SQLite only). */
    secretKey: e.SECRET_KEY,
    twoFactor: e.TWO_FACTOR,
    /** argon2id's memory for new hashes; older ones are rehashed at sign-in. */
    passwordHash: { memoryMib: e.ARGON2_MEMORY_MIB },
    trustedProxies: e.TRUSTED_PROXIES,
    /** Origins whose pages may call /v1 from a browser ("*" = any: keys are bearer tokens, not cookies); the page's /api never. */
    apiCorsOrigins: e.API_CORS_ORIGINS,
    /** Messages a user may send to /chat and /process (docs/SECURITY.md, "Spend limits"). */
    spend: { per10Min: e.CHAT_LIMIT_PER_10_MIN, perDay: e.CHAT_LIMIT_PER_DAY, trialPerDay: e.TRIAL_CHAT_LIMIT_PER_DAY },
    /** Open GET /conversation/{id}/events streams of this process, all users together (src/chat/stream-slots.ts). */
    liveStreamsMax: e.LIVE_STREAMS_MAX,
    /** How many requests Bun's fetch runs at once in this process (src/ai/upstream-calls.ts). */
    httpClientCap: e.BUN_CONFIG_MAX_HTTP_REQUESTS,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, supportEmail: e.SUPPORT_EMAIL },
    ai: {
      timeoutMs: e.AI_TIMEOUT_MS,
      softDeadlineMs: e.AI_SOFT_DEADLINE_MS,
      quorum: e.AI_QUORUM,
      budgetMs: e.AI_BUDGET_MS,
      moderationOnOutage: e.MODERATION_ON_OUTAGE,
      prices: {
        gpt4: e.AI_PRICE_GPT4 ?? DEFAULT_PRICES.gpt4,
        claudeOpus: e.AI_PRICE_CLAUDE_OPUS ?? DEFAULT_PRICES.claudeOpus,
        claudeHaiku: e.AI_PRICE_CLAUDE_HAIKU ?? DEFAULT_PRICES.claudeHaiku,
        geminiPro: e.AI_PRICE_GEMINI_PRO ?? DEFAULT_PRICES.geminiPro,
        mistralLarge: e.AI_PRICE_MISTRAL_LARGE ?? DEFAULT_PRICES.mistralLarge,
        sonarPro: e.AI_PRICE_SONAR_PRO ?? DEFAULT_PRICES.sonarPro,
      } satisfies Record<BuiltinKey, Price>,
      openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL },
      anthropic: { apiKey: e.ANTHROPIC_API_KEY, baseUrl: e.ANTHROPIC_BASE_URL },
      google: { apiKey: e.GOOGLE_API_KEY, baseUrl: e.GOOGLE_BASE_URL },
      mistral: { apiKey: e.MISTRAL_API_KEY, baseUrl: e.MISTRAL_BASE_URL },
      perplexity: { apiKey: e.PERPLEXITY_API_KEY, baseUrl: e.PERPLEXITY_BASE_URL ?? "https://api.perplexity.ai" },
      models: {
        gpt4: e.MODEL_GPT4,
        claudeOpus: e.MODEL_CLAUDE_OPUS,
        claudeHaiku: e.MODEL_CLAUDE_HAIKU,
        geminiPro: e.MODEL_GEMINI_PRO,
        mistralLarge: e.MODEL_MISTRAL_LARGE,
        sonarPro: e.MODEL_SONAR_PRO,
      } satisfies Record<BuiltinKey, string>,
    },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    },
    logLevel: e.LOG_LEVEL as LogLevel,
    logFormat: e.LOG_FORMAT as LogFormat,
    /** Bearer token of GET /metrics; unset = no metrics endpoint. */
    metricsToken: e.METRICS_TOKEN,
    /** Files given with a question (issue 33, docs/API.md "Attachments"). */
    attachments: {
      maxBytes: e.ATTACHMENT_MAX_MB * 1024 * 1024,
      maxMb: e.ATTACHMENT_MAX_MB,
      perMessage: e.ATTACHMENTS_PER_MESSAGE,
      /** Tokens of document text one request gives the models, all documents together (cut by pages). */
      tokenBudget: e.ATTACHMENT_TOKEN_BUDGET,
      /** Pages read per request, by plan (an expired plan cannot ask at all). */
      pagesByPlan: { trial: e.ATTACHMENT_PAGES_TRIAL, basic: e.ATTACHMENT_PAGES_BASIC, pro: e.ATTACHMENT_PAGES_PRO, expired: e.ATTACHMENT_PAGES_TRIAL },
      extractTimeoutMs: e.ATTACHMENT_EXTRACT_TIMEOUT_MS,
      /** Memory one file's reading may use: the budget checked before decoding, and its reader process's limit above its start. */
      extractMaxBytes: e.ATTACHMENT_EXTRACT_MAX_MB * 1024 * 1024,
      /** Reader processes at once; 0: one per core, within half the machine's memory (src/attachments/reader-pool.ts). */
      readers: e.ATTACHMENT_READERS,
      /** Megabytes of files a user may keep, stored plus being read, by plan (src/attachments/storage-quota.ts). */
      quotaMbByPlan: {
        trial: e.ATTACHMENT_QUOTA_MB_TRIAL,
        basic: e.ATTACHMENT_QUOTA_MB_BASIC,
        pro: e.ATTACHMENT_QUOTA_MB_PRO,
        expired: e.ATTACHMENT_QUOTA_MB_TRIAL,
      },
    },
    /** Web search (issue 45): null when off or without a search service. */
    webSearch: webSearchConfig(e),
    backup: { intervalMs: e.BACKUP_INTERVAL ? durationMs(e.BACKUP_INTERVAL) : undefined, keep: e.BACKUP_KEEP },
  };
}

type DeepReadonly<T> = { readonly [K in keyof T]: T[K] extends object ? DeepReadonly<T[K]> : T[K] };
export type Config = DeepReadonly<ReturnType<typeof buildConfig>>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Validates the environment; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = checkedEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "configuration");
    throw new ConfigError(`Configuration invalide : ${name}=${shownValue(name, env[name])} ${issue.message}`);
  }
  return deepFreeze(buildConfig(parsed.data));
}

/**
 * The bad value as the error line shows it: this line lands in logs, so a
 * key or password is never echoed, nor the user:password@ of a mistyped
 * SMTP_URL or base URL (docs/SECURITY.md).
 */
function shownValue(name: string, value: string | undefined): string {
  if (/KEY|SECRET|PASSWORD/.test(name)) return '"[masqué]"';
  const text = value ?? "";
  // Everything from the scheme to the last "@": a password may hold "/" or "@" itself.
  return JSON.stringify(/URL|BASE/.test(name) ? text.replace(/^(\S*?\/\/)?\S*@/, "$1[masqué]@") : text);
}
