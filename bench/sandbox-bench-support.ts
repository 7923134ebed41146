import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { defaultSandboxConfig, type SandboxConfig } from "../src/sandbox/config";
import { startSandbox } from "../src/sandbox/start-sandbox";

export const BENCH_KEY = "bench-key";
export const benchAuth = { authorization: `Bearer ${BENCH_KEY}` };

/** A sandbox on 127.0.0.1 with a throwaway media dir; `stop` removes everything. */
export async function startBenchSandbox(overrides: Partial<SandboxConfig> = {}) {
  const mediaDir = await mkdtemp(path.join(os.tmpdir(), "sandbox-bench-"));
  const sandbox = await startSandbox({ config: { ...defaultSandboxConfig, apiKeys: [BENCH_KEY], mediaDir, ...overrides }, log: () => {} });
  return {
    baseUrl: sandbox.baseUrl,
    stop: async () => {
      await sandbox.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
