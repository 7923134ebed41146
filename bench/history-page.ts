/**
 * How long one history page takes to read from a ledger of 10,000 generations.
 * Run with: npx tsx bench/history-page.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { GenerationListQuery, GenerationStatus } from "../src/api/studio";
import { startStudio } from "../src/server/create-studio";
import { loadServerConfig } from "../src/server/env";
import { openLedgerDatabase } from "../src/server/ledger/database";
import { Ledger } from "../src/server/ledger/ledger";
import type { OutputInput } from "../src/server/ledger/ledger";

const GENERATION_COUNT = 10_000;
const PAGE_SIZE = 100;
const RUNS = 50;
const SUBJECTS = ["a red fox", "a lighthouse at dusk", "neon city street", "mountain lake", "portrait of a cat"];
const STYLES = ["watercolour", "photorealistic", "isometric", "film noir", "pixel art"];

function percentile(sortedMs: number[], fraction: number): number {
  const index = Math.min(sortedMs.length - 1, Math.ceil(fraction * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)] ?? Number.NaN;
}

function measure(label: string, run: () => unknown): void {
  run(); // warm-up: prepares and caches the statement
  const timings: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    run();
    timings.push(performance.now() - start);
  }
  timings.sort((a, b) => a - b);
  console.log(`${label}: median ${percentile(timings, 0.5).toFixed(2)} ms, p95 ${percentile(timings, 0.95).toFixed(2)} ms`);
}

function fillLedger(ledger: Ledger): void {
  const startedAt = Date.UTC(2025, 0, 1);
  for (let i = 0; i < GENERATION_COUNT; i += 1) {
    const kind = i % 3 === 0 ? "video" : "image";
    const now = startedAt + i * 60_000;
    const referenceCount = i % 4 === 0 ? 1 + (i % 3) : 0;
    const { id } = ledger.createGeneration({
      kind,
      prompt: `${SUBJECTS[i % SUBJECTS.length]}, ${STYLES[(i * 7) % STYLES.length]}, variation ${i}`,
      model: kind === "video" ? "video-model" : `image-model-${i % 2}`,
      params: kind === "video" ? { size: "1280x720" } : { aspect_ratio: "16:9" },
      references: Array.from({ length: referenceCount }, (_, position) => ({
        id: `ref-${i}-${position}`,
        mime: "image/png",
        name: `reference-${position}.png`,
        bytes: 50_000 + position,
        sourceUrl: null,
        filePath: `references/ref-${i}-${position}.png`,
      })),
      status: kind === "image" ? "processing" : "pending",
      providerTaskId: kind === "video" ? String(i) : null,
      webhookToken: kind === "video" ? `token-${i}` : null,
      now,
    });

    const outcome: GenerationStatus = i % 10 === 0 ? "failed" : i % 50 === 1 ? "processing" : "success";
    if (kind === "video") ledger.transition(id, "processing", { now: now + 5_000 });
    if (outcome === "processing") continue;
    const outputs: OutputInput[] = Array.from({ length: 1 + (i % 4) }, (_, index) => ({
      index,
      providerUrl: `https://cdn.example.com/${id}/${index}.${kind === "video" ? "mp4" : "png"}`,
      providerCoverUrl: kind === "video" ? `https://cdn.example.com/${id}/${index}.jpg` : null,
      mime: kind === "video" ? "video/mp4" : "image/png",
    }));
    ledger.transition(id, outcome, {
      now: now + 30_000,
      outputs,
      error: outcome === "failed" ? { code: "provider_error", message: "The provider failed." } : null,
    });
    if (outcome === "success" && i % 2 === 0) {
      for (const output of outputs) {
        ledger.recordMirroredOutput(id, {
          index: output.index,
          filePath: `media/${id}/${output.index}.bin`,
          coverPath: null,
          thumbnailPath: `media/${id}/${output.index}.webp`,
          width: 1280,
          height: 720,
        });
      }
    }
    if (i % 25 === 0) ledger.setFavourite(id, true);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), "history-page-bench-"));
try {
  const db = openLedgerDatabase(join(dataDir, "ledger.sqlite"));
  const ledger = new Ledger(db);

  const insertStart = performance.now();
  db.transaction(() => fillLedger(ledger))();
  console.log(`insert ${GENERATION_COUNT} generations (one transaction): ${(performance.now() - insertStart).toFixed(0)} ms`);

  const firstPage = (query: Partial<GenerationListQuery> = {}) => ledger.listGenerations({ limit: PAGE_SIZE, ...query });
  let middleCursor: string | undefined;
  for (let page = 0; page < GENERATION_COUNT / PAGE_SIZE / 2; page += 1) {
    middleCursor = firstPage({ cursor: middleCursor }).nextCursor ?? undefined;
  }
  const searchQuery: Partial<GenerationListQuery> = { q: "LIGHTHOUSE", kind: "video" };
  const searchHits = firstPage(searchQuery).items.length;

  measure(`history page (${PAGE_SIZE} of ${GENERATION_COUNT}, first page)`, () => firstPage());
  measure(`history page (${PAGE_SIZE} of ${GENERATION_COUNT}, middle page via cursor)`, () => firstPage({ cursor: middleCursor }));
  measure(`history page (${searchHits} hits, q="lighthouse" + kind=video)`, () => firstPage(searchQuery));
  measure(`history page (0 hits, q="no such prompt": scans every row)`, () => firstPage({ q: "no such prompt" }));
  measure(`history page (${PAGE_SIZE} of ${GENERATION_COUNT}, favourite=true)`, () => firstPage({ favourite: true }));
  measure(`due unfinished video tasks (reconciler tick)`, () => ledger.listDueUnfinished(Date.now()));
  db.close();

  // The same page as a browser gets it: GET /api/studio/generations over a real socket, JSON included.
  const studio = await startStudio(loadServerConfig({ STUDIO_DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "silent" }));
  try {
    const timings: number[] = [];
    for (let run = 0; run <= RUNS; run += 1) {
      const start = performance.now();
      const response = await fetch(`${studio.url}/api/studio/generations?limit=${PAGE_SIZE}`);
      await response.arrayBuffer();
      if (run > 0) timings.push(performance.now() - start);
    }
    timings.sort((a, b) => a - b);
    console.log(
      `GET /api/studio/generations?limit=${PAGE_SIZE} over HTTP: median ${percentile(timings, 0.5).toFixed(2)} ms, p95 ${percentile(timings, 0.95).toFixed(2)} ms`,
    );
  } finally {
    await studio.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
// Mirror retries of the seeded (fake) provider URLs may still be waiting on the network.
process.exit(0);
