import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, isLoopback, loadServerConfig } from "./env";

/** The ConfigError loadServerConfig throws for this environment. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadServerConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe("loadServerConfig", () => {
  it("has working defaults: loopback, port 3000, embedded sandbox, no token", () => {
    const config = loadServerConfig({});
    expect(config).toMatchObject({
      upstream: null,
      host: "127.0.0.1",
      port: 3000,
      dataDir: path.resolve("./data"),
      publicUrl: null,
      studioToken: null,
      imageModels: ["sandbox-image-1", "sandbox-image-1-hd"],
      videoModels: ["sandbox-video-1"],
      maxReferenceImages: 8,
      maxReferenceImageBytes: 25 * 1024 * 1024,
      upstreamTimeoutMs: 180_000,
      upstreamStatusTimeoutMs: 15_000,
      videoDeadlineMs: 30 * 60_000,
      reconcileIntervalMs: 5000,
      logLevel: "info",
    });
  });

  it("reads every setting", () => {
    const config = loadServerConfig({
      UPSTREAM_BASE_URL: "https://provider.example.com/",
      UPSTREAM_API_KEY: "key-123",
      HOST: "0.0.0.0",
      PORT: "8080",
      STUDIO_DATA_DIR: "/tmp/studio-data",
      PUBLIC_URL: "https://studio.example.com/",
      STUDIO_TOKEN: "a-long-random-secret",
      STUDIO_IMAGE_MODELS: " img-a , img-b,, ",
      STUDIO_VIDEO_MODELS: "vid-a",
      STUDIO_MAX_REFERENCE_IMAGES: "4",
      STUDIO_MAX_REFERENCE_IMAGE_MB: "1.5",
      UPSTREAM_TIMEOUT_MS: "60000",
      UPSTREAM_STATUS_TIMEOUT_MS: "5000",
      VIDEO_DEADLINE_MINUTES: "10",
      RECONCILE_INTERVAL_MS: "2000",
      LOG_LEVEL: "warn",
    });
    expect(config).toMatchObject({
      upstream: { baseUrl: "https://provider.example.com", apiKey: "key-123" },
      host: "0.0.0.0",
      port: 8080,
      dataDir: "/tmp/studio-data",
      publicUrl: "https://studio.example.com",
      studioToken: "a-long-random-secret",
      imageModels: ["img-a", "img-b"],
      videoModels: ["vid-a"],
      maxReferenceImages: 4,
      maxReferenceImageBytes: Math.round(1.5 * 1024 * 1024),
      upstreamTimeoutMs: 60_000,
      upstreamStatusTimeoutMs: 5000,
      videoDeadlineMs: 10 * 60_000,
      reconcileIntervalMs: 2000,
      logLevel: "warn",
    });
  });

  it("refuses a network bind without STUDIO_TOKEN, and says why", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20"]) {
      const error = configError({ HOST: host });
      expect(error.name).toBe("ConfigError");
      expect(error.message).toContain("STUDIO_TOKEN");
      expect(error.message).toContain(host);
      expect(error.message).toMatch(/loopback/);
      expect(error.message).toMatch(/network/);
    }
    expect(loadServerConfig({ HOST: "0.0.0.0", STUDIO_TOKEN: "a-long-random-secret" }).host).toBe("0.0.0.0");
    for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "::1"]) expect(loadServerConfig({ HOST: host }).host).toBe(host);
  });

  it("needs UPSTREAM_API_KEY with UPSTREAM_BASE_URL", () => {
    const error = configError({ UPSTREAM_BASE_URL: "https://provider.example.com" });
    expect(error.message).toContain("UPSTREAM_API_KEY");
    expect(error.message).toContain("UPSTREAM_BASE_URL");
  });

  it("refuses an upstream URL that is not http(s)", () => {
    expect(configError({ UPSTREAM_BASE_URL: "ftp://provider.example.com", UPSTREAM_API_KEY: "k" }).message).toMatch(/UPSTREAM_BASE_URL.*http/);
    expect(configError({ UPSTREAM_BASE_URL: "not a url", UPSTREAM_API_KEY: "k" }).message).toContain("UPSTREAM_BASE_URL");
  });

  it.each(["abc", "70000", "-1", "3000.5", "80 80"])("refuses PORT=%s with a readable message", (port) => {
    const error = configError({ PORT: port });
    expect(error.message).toContain("PORT");
    expect(error.message).toMatch(/0 to 65535/);
    expect(error.message).not.toMatch(/NaN/);
  });

  it("refuses a short STUDIO_TOKEN", () => {
    expect(configError({ STUDIO_TOKEN: "short" }).message).toMatch(/STUDIO_TOKEN must be at least 12 characters/);
  });

  it("lists every wrong setting at once and points to .env.example", () => {
    const error = configError({ PORT: "abc", LOG_LEVEL: "loud", STUDIO_TOKEN: "short" });
    expect(error.message).toContain("PORT");
    expect(error.message).toContain("LOG_LEVEL");
    expect(error.message).toContain("STUDIO_TOKEN");
    expect(error.message).toContain(".env.example");
  });

  it("treats an empty variable as unset (PORT= does not mean a random port)", () => {
    const config = loadServerConfig({ PORT: "", HOST: "", STUDIO_TOKEN: "", UPSTREAM_BASE_URL: "", UPSTREAM_API_KEY: "", LOG_LEVEL: " " });
    expect(config).toMatchObject({ port: 3000, host: "127.0.0.1", studioToken: null, upstream: null, logLevel: "info" });
  });

  it("knows the loopback addresses", () => {
    for (const host of ["localhost", "127.0.0.1", "127.9.9.9", "::1", "[::1]"]) expect(isLoopback(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.0.1", "localhost.example.com", "128.0.0.1"]) expect(isLoopback(host)).toBe(false);
  });
});
