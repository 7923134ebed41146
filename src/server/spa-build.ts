import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = ["src/web", "src/api", "index.html", "vite.config.ts", "tailwind.config.ts", "public"];

/** Builds the SPA with Vite when dist/ is missing or older than its sources; resolves when done. */
export async function buildSpaIfNeeded(root: string, log: (message: string) => void): Promise<string> {
  const distDir = path.join(root, "dist");
  const builtAt = modifiedAt(path.join(distDir, "index.html"));
  const newestSource = Math.max(...SOURCES.map((source) => newestModification(path.join(root, source))));
  if (builtAt !== null && builtAt >= newestSource) return distDir;

  log(builtAt === null ? "Building the studio web app (first start)…" : "The web app changed since the last build; rebuilding…");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
      cwd: root,
      stdio: "inherit",
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited with code ${code}`))));
  });
  return distDir;
}

function modifiedAt(file: string): number | null {
  return existsSync(file) ? statSync(file).mtimeMs : null;
}

function newestModification(target: string): number {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestModification(path.join(target, name))), info.mtimeMs);
}
