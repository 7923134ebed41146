/**
 * The real server process (`node --import tsx src/server/main.ts`, what `npm start` runs) killed
 * with SIGKILL while video tasks are pending/processing and an image request is in flight, then
 * started again on the same data dir: every video still ends `success` with its files mirrored,
 * and the interrupted image is marked failed instead of staying "processing" forever.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { Generation } from "../api/studio";
import { call, isMirrored, listGenerations, sleep, waitFor } from "./test/socket-harness";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const READY_LINE = /Media Studio ready at (http:\/\/\S+)/;

interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

const children = new Set<ChildProcess>();
const dataDirs: string[] = [];

/** Variables the test must not inherit from the machine it runs on. */
const INHERITED_OUT = ["UPSTREAM_BASE_URL", "UPSTREAM_API_KEY", "STUDIO_TOKEN", "PUBLIC_URL", "HOST", "PORT", "STUDIO_DATA_DIR"];

async function startServer(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !INHERITED_OUT.includes(name)));
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { ...inherited, HOST: "127.0.0.1", PORT: "0", STUDIO_SKIP_BUILD: "1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not print its URL within ${timeoutMs} ms. Output:\n${output}`)), timeoutMs);
    const check = () => {
      const match = READY_LINE.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (${code ?? signal}) before it was ready. Output:\n${output}`));
    });
  });
  return { child, url, output: () => output };
}

async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  await Promise.race([exited, sleep(5000)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await exited;
  }
}

afterEach(async () => {
  await Promise.all([...children].map((child) => kill(child, "SIGKILL")));
  for (const dataDir of dataDirs.splice(0)) await rm(dataDir, { recursive: true, force: true });
});

describe("restart of the real server process", () => {
  it("finishes every video and fails the interrupted image after a SIGKILL and a restart", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "studio-restart-"));
    dataDirs.push(dataDir);
    const env = {
      STUDIO_DATA_DIR: dataDir,
      RECONCILE_INTERVAL_MS: "300",
      SANDBOX_PENDING_MS: "300",
      SANDBOX_PROCESSING_MS: "2000",
      SANDBOX_VIDEO_SECONDS: "1",
      // Long enough that the image is still being generated when the server dies.
      SANDBOX_IMAGE_DELAY_MS: "60000",
    };

    const first = await startServer(env);
    const submitted: Generation[] = [];
    for (const index of [1, 2, 3]) {
      const response = await call(first.url, "/api/studio/videos", {
        method: "POST",
        body: { prompt: `restart video ${index}`, model: "sandbox-video-1", size: "128x72" },
      });
      expect(response.status, response.text).toBe(202);
      submitted.push(response.json as Generation);
    }
    expect(submitted.every((generation) => generation.providerTaskId !== null)).toBe(true);

    // An image request in flight: never answered, because the server dies first.
    const imageRequest = call(first.url, "/api/studio/images", { method: "POST", body: { prompt: "interrupted image", model: "sandbox-image-1" } }).catch(
      (error: unknown) => error,
    );

    // Kill once the image is being generated and a video is processing, before any video is done.
    const before = await waitFor(
      () => listGenerations(first.url),
      (items) =>
        items.some((item) => item.kind === "image" && item.status === "processing") &&
        items.some((item) => item.kind === "video" && item.status === "processing"),
      15_000,
      50,
    );
    first.child.kill("SIGKILL");
    await new Promise((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve(null) : first.child.once("exit", resolve)));
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(before.filter((item) => item.kind === "video" && item.status === "success")).toEqual([]);
    expect(await imageRequest).toBeInstanceOf(Error);

    // Same data dir, new process (and a new port, and a new embedded sandbox key).
    const second = await startServer(env);
    expect(second.url).not.toBe(first.url);

    const videos = await waitFor(
      async () => (await listGenerations(second.url, "kind=video")).filter((item) => submitted.some((s) => s.id === item.id)),
      (items) => items.length === 3 && items.every(isMirrored),
      40_000,
      200,
    );
    for (const video of videos) {
      expect(video.statusHistory.filter((change) => change.status === "success")).toHaveLength(1);
      expect(video.outputs).toHaveLength(1);
      const output = video.outputs[0];
      if (!output) throw new Error("no output");
      expect(output.url).toMatch(new RegExp(`^/media/${video.id}/0\\.mp4$`));
      expect(output.coverUrl).toMatch(new RegExp(`^/media/${video.id}/0-cover\\.png$`));
      expect(output.thumbnailUrl).toMatch(new RegExp(`^/media/${video.id}/0-thumb\\.webp$`));
      for (const url of [output.url, output.coverUrl ?? "", output.thumbnailUrl ?? ""]) {
        const file = path.join(dataDir, ...url.split("/").filter(Boolean));
        expect(existsSync(file), file).toBe(true);
        expect((await stat(file)).size).toBeGreaterThan(100);
      }
      const mp4 = await readFile(path.join(dataDir, ...output.url.split("/").filter(Boolean)));
      expect(mp4.subarray(4, 8).toString("latin1")).toBe("ftyp");
    }
    const served = await fetch(`${second.url}${videos[0]?.outputs[0]?.url ?? ""}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toContain("video/mp4");
    await served.body?.cancel();

    const images = await waitFor(
      () => listGenerations(second.url, "kind=image"),
      (items) => items.length === 1 && items[0]?.status === "failed",
      10_000,
      100,
    );
    expect(images[0]?.prompt).toBe("interrupted image");
    expect(images[0]?.error?.code).toBe("generation_failed");
    expect(images[0]?.completedAt).not.toBeNull();

    await kill(second.child, "SIGTERM");
    expect(second.child.exitCode).toBe(0);
  });

  it("mirrors media again after a kill that interrupted the mirror (provider URLs from the previous run)", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "studio-restart-"));
    dataDirs.push(dataDir);
    const env = { STUDIO_DATA_DIR: dataDir, RECONCILE_INTERVAL_MS: "300", SANDBOX_PENDING_MS: "100", SANDBOX_PROCESSING_MS: "300", SANDBOX_VIDEO_SECONDS: "1" };

    const first = await startServer(env);
    const image = await call(first.url, "/api/studio/images", { method: "POST", body: { prompt: "mirrored twice", model: "sandbox-image-1" } });
    expect(image.status, image.text).toBe(201);
    const video = await call(first.url, "/api/studio/videos", { method: "POST", body: { prompt: "mirrored twice", model: "sandbox-video-1", size: "128x72" } });
    expect(video.status, video.text).toBe(202);
    const ids = [(image.json as Generation).id, (video.json as Generation).id];
    await waitFor(() => listGenerations(first.url), (items) => items.length === 2 && items.every(isMirrored), 20_000, 100);
    first.child.kill("SIGKILL");
    await new Promise((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve(null) : first.child.once("exit", resolve)));

    // The state a SIGKILL leaves between "success recorded" and "files in place": the ledger knows the
    // provider's URLs (from the previous run) and no mirrored files.
    const db = new BetterSqlite3(path.join(dataDir, "ledger.sqlite"));
    db.prepare("UPDATE generation_outputs SET file_path = NULL, cover_path = NULL, thumbnail_path = NULL, width = NULL, height = NULL").run();
    db.close();
    await rm(path.join(dataDir, "media"), { recursive: true, force: true });

    const second = await startServer(env);
    const items = await waitFor(() => listGenerations(second.url), (list) => list.length === 2 && list.every(isMirrored), 20_000, 100);
    expect(items.map((item) => item.id).sort()).toEqual([...ids].sort());
    for (const item of items) {
      for (const output of item.outputs) {
        expect(existsSync(path.join(dataDir, ...output.url.split("/").filter(Boolean)))).toBe(true);
        expect(existsSync(path.join(dataDir, ...(output.thumbnailUrl ?? "").split("/").filter(Boolean)))).toBe(true);
      }
    }
  });
});
