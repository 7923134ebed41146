import { sandboxConfigFromEnv } from "./config";
import { startSandbox } from "./start-sandbox";

async function main() {
  let settings;
  try {
    settings = sandboxConfigFromEnv(process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const { config, listen } = settings;
  const sandbox = await startSandbox({ config, host: listen.host, port: listen.port });
  console.log(`Sandbox provider ready at ${sandbox.baseUrl}`);
  console.log(`  API keys: ${config.apiKeys.length} configured (SANDBOX_API_KEYS); media in ${config.mediaDir}`);

  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

void main().catch((error: unknown) => {
  console.error("The sandbox could not start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
