import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../../src/config.ts";

describe("configuration", () => {
  test("defaults follow CONFIG.md", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe("0.0.0.0");
    expect(c.publicUrl).toBe("http://localhost:3000");
    expect(c.databasePath).toBe("data/unisson.db");
    expect(c.twoFactor).toBe("admins");
    expect(c.mail.from).toBe("Unisson <no-reply@localhost>");
    expect(c.mail.supportEmail).toBe("support@localhost");
    expect(c.ai.timeoutMs).toBe(90000);
    expect(c.ai.perplexity.baseUrl).toBe("https://api.perplexity.ai");
    expect(c.stripe.secretKey).toBeUndefined();
    expect(c.logLevel).toBe("info");
    expect(c.liveStreamsMax).toBe(1000);
    expect(c.apiCorsOrigins).toBe("*");
  });

  test("API_CORS_ORIGINS: a comma-separated list read back as origins", () => {
    expect(loadConfig({ API_CORS_ORIGINS: "https://chat.example.fr/, http://localhost:8080" }).apiCorsOrigins).toEqual([
      "https://chat.example.fr",
      "http://localhost:8080",
    ]);
  });

  test("PUBLIC_URL follows PORT and DATABASE_PATH follows DATA_DIR", () => {
    const c = loadConfig({ PORT: "8080", DATA_DIR: "/srv/unisson" });
    expect(c.publicUrl).toBe("http://localhost:8080");
    expect(c.databasePath).toBe("/srv/unisson/unisson.db");
  });

  test("every variable is read under its exact name", () => {
    const c = loadConfig({
      HOST: "127.0.0.1",
      PUBLIC_URL: "https://unisson.example.fr/",
      DATABASE_PATH: ":memory:",
      ADMIN_EMAIL: " Admin@Example.fr ",
      ADMIN_PASSWORD: "s3cret-pass",
      TWO_FACTOR: "all",
      SMTP_URL: "smtp://u:p@127.0.0.1:2525",
      MAIL_FROM: "Unisson <bonjour@example.fr>",
      SUPPORT_EMAIL: "aide@example.fr",
      OPENAI_API_KEY: "k1",
      OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
      ANTHROPIC_API_KEY: "k2",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:2",
      GOOGLE_API_KEY: "k3",
      GOOGLE_BASE_URL: "http://127.0.0.1:3",
      MISTRAL_API_KEY: "k4",
      MISTRAL_BASE_URL: "http://127.0.0.1:4",
      PERPLEXITY_API_KEY: "k5",
      PERPLEXITY_BASE_URL: "http://127.0.0.1:5",
      MODEL_GPT4: "gpt-4-turbo",
      MODEL_CLAUDE_OPUS: "opus",
      MODEL_CLAUDE_HAIKU: "haiku",
      MODEL_GEMINI_PRO: "gemini",
      MODEL_MISTRAL_LARGE: "mistral",
      MODEL_SONAR_PRO: "sonar",
      AI_TIMEOUT_MS: "5000",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      STRIPE_API_BASE: "http://127.0.0.1:12111",
      LOG_LEVEL: "warn",
    });
    expect(c.host).toBe("127.0.0.1");
    expect(c.publicUrl).toBe("https://unisson.example.fr");
    expect(c.databasePath).toBe(":memory:");
    expect(c.admin).toEqual({ email: "admin@example.fr", password: "s3cret-pass" });
    expect(c.twoFactor).toBe("all");
    expect(c.mail).toEqual({ smtpUrl: "smtp://u:p@127.0.0.1:2525", from: "Unisson <bonjour@example.fr>", supportEmail: "aide@example.fr" });
    expect(c.ai.openai).toEqual({ apiKey: "k1", baseUrl: "http://127.0.0.1:1/v1" });
    expect(c.ai.anthropic.baseUrl).toBe("http://127.0.0.1:2");
    expect(c.ai.google.apiKey).toBe("k3");
    expect(c.ai.mistral.baseUrl).toBe("http://127.0.0.1:4");
    expect(c.ai.perplexity).toEqual({ apiKey: "k5", baseUrl: "http://127.0.0.1:5" });
    expect(c.ai.models).toEqual({
      gpt4: "gpt-4-turbo",
      claudeOpus: "opus",
      claudeHaiku: "haiku",
      geminiPro: "gemini",
      mistralLarge: "mistral",
      sonarPro: "sonar",
    });
    expect(c.ai.timeoutMs).toBe(5000);
    expect(c.stripe).toEqual({ secretKey: "sk_test_x", webhookSecret: "whsec_x", apiBase: "http://127.0.0.1:12111" });
    expect(c.logLevel).toBe("warn");
  });

  test("the config is frozen", () => {
    const c = loadConfig({});
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.ai.models)).toBe(true);
  });

  test("empty optional variables count as unset", () => {
    const c = loadConfig({ OPENAI_API_KEY: "", SMTP_URL: "", STRIPE_SECRET_KEY: "  " });
    expect(c.ai.openai.apiKey).toBeUndefined();
    expect(c.mail.smtpUrl).toBeUndefined();
    expect(c.stripe.secretKey).toBeUndefined();
  });

  const bad: Array<[string, string]> = [
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["TWO_FACTOR", "sometimes"],
    ["LOG_LEVEL", "loud"],
    ["AI_TIMEOUT_MS", "soon"],
    ["SMTP_URL", "http://mail.example"],
    ["PUBLIC_URL", "not a url"],
    ["OPENAI_BASE_URL", "ftp://x"],
    ["ADMIN_EMAIL", "not-an-email"],
    ["LIVE_STREAMS_MAX", "0"],
    ["API_CORS_ORIGINS", "chat.example.fr"],
  ];
  for (const [name, value] of bad) {
    test(`${name}=${value} is refused with one line naming the variable`, () => {
      let err: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      expect(msg).toContain(name);
      expect(msg).not.toContain("\n");
    });
  }

  test("DATABASE_URL=postgres://… selects PostgreSQL; DATA_DIR and DATABASE_PATH then name no database", () => {
    const c = loadConfig({ DATABASE_URL: "postgres://unisson:hunter2@db.internal:5432/unisson", DATA_DIR: "/srv/x", DATABASE_PATH: "/srv/x/y.db" });
    expect(c.databaseUrl).toBe("postgres://unisson:hunter2@db.internal:5432/unisson");
    expect(c.databaseLabel).toBe("postgres://unisson:***@db.internal:5432/unisson");
    expect(loadConfig({ DATABASE_URL: "postgresql://u@127.0.0.1/unisson" }).databaseUrl).toBe("postgresql://u@127.0.0.1/unisson");
  });

  test("a DATABASE_URL that is not postgres:// is refused in French, without echoing its password", () => {
    let err: unknown;
    try {
      loadConfig({ DATABASE_URL: "mysql://unisson:hunter2@db.internal:3306/unisson" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain("DATABASE_URL");
    expect(msg).toContain("doit être une URL postgres://");
    expect(msg).not.toContain("hunter2");
    expect(msg).not.toContain("\n");
  });

  test("an empty DATABASE_URL counts as unset (SQLite)", () => {
    const c = loadConfig({ DATABASE_URL: "" });
    expect(c.databasePath).toBe("data/unisson.db");
    expect(c.databaseUrl).toBeUndefined();
  });
});
