import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface RunningProcess {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/** Runs a TypeScript entry point in one Node process (tsx as a loader, so the pid is the program's own) and resolves with the URL it prints when ready. */
export function startEntryPoint(entry: string, env: Record<string, string>, ready: RegExp, timeoutMs = 60_000): Promise<RunningProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, entry)], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${entry} did not become ready within ${timeoutMs} ms`));
    }, timeoutMs);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          pid: child.pid ?? -1,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
              setTimeout(() => child.kill("SIGKILL"), 5000).unref();
            }),
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited early with code ${code}:\n${output}`));
    });
  });
}

export const SANDBOX_READY = /Sandbox provider ready at (http:\/\/\S+)/;
export const STUDIO_READY = /Media Studio ready at (http:\/\/\S+)/;

/**
 * A standalone sandbox process and a studio process that uses it as its provider, in a throwaway
 * dir, so each one's memory and CPU can be measured on its own. `stop` ends both and removes the dir.
 */
export async function startSandboxAndStudio(sandboxEnv: Record<string, string> = {}) {
  const key = "bench-provider-key";
  const dir = await mkdtemp(path.join(os.tmpdir(), "studio-bench-"));
  const sandbox = await startEntryPoint(
    "src/sandbox/main.ts",
    { SANDBOX_PORT: "0", SANDBOX_API_KEYS: key, SANDBOX_MEDIA_DIR: path.join(dir, "sandbox"), ...sandboxEnv },
    SANDBOX_READY,
  );
  const studio = await startEntryPoint(
    "src/server/main.ts",
    { PORT: "0", STUDIO_DATA_DIR: path.join(dir, "studio"), UPSTREAM_BASE_URL: sandbox.url, UPSTREAM_API_KEY: key, STUDIO_SKIP_BUILD: "1" },
    STUDIO_READY,
  );
  return {
    key,
    sandbox,
    studio,
    stop: async () => {
      await studio.stop();
      await sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
