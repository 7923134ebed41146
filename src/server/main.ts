import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, loadServerConfig } from "./env";
import { startStudio } from "./create-studio";
import { buildSpaIfNeeded } from "./spa-build";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

async function main() {
  if (existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));
  const config = loadServerConfig(process.env);
  const distDir = process.env.STUDIO_SKIP_BUILD === "1" ? path.join(root, "dist") : await buildSpaIfNeeded(root, (message) => console.log(message));
  const studio = await startStudio(config, { distDir });

  console.log(`Media Studio ready at ${studio.url}`);
  console.log(
    config.upstream
      ? `  Provider: ${new URL(config.upstream.baseUrl).origin}`
      : "  Provider: the built-in sandbox (no API key needed; set UPSTREAM_BASE_URL and UPSTREAM_API_KEY for a real one)",
  );
  console.log(`  Data: ${config.dataDir}${config.studioToken ? "  ·  sign-in required (STUDIO_TOKEN)" : ""}`);

  // A stray rejection in background work (a mirror, a webhook re-read) must not take the studio down.
  process.on("unhandledRejection", (reason) => {
    studio.deps.log.error("unhandled rejection in background work", { error: reason });
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}; stopping…`);
    await studio.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error("Media Studio could not start:", error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
