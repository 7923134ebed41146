/** Wall time of one video task end to end: submit, poll every 5 s as the spec recommends, download the MP4. */
import { POLL_INTERVAL_MS, taskAcceptanceSchema, videoTaskRecordSchema } from "../src/api/provider";
import { defaultSandboxConfig } from "../src/sandbox/config";
import { benchAuth, ms, startBenchSandbox } from "./sandbox-bench-support";

async function runTask(baseUrl: string, pollIntervalMs: number) {
  const started = performance.now();
  const submitted = await fetch(`${baseUrl}/api/ai/videos`, {
    method: "POST",
    headers: { ...benchAuth, "content-type": "application/json" },
    body: JSON.stringify({ prompt: "waves rolling onto a beach at sunset", model: "sandbox-video" }),
  });
  const { id } = taskAcceptanceSchema.parse(await submitted.json());
  for (;;) {
    const record = videoTaskRecordSchema.parse(await (await fetch(`${baseUrl}/api/ai/videos/${id}`, { headers: benchAuth })).json());
    if (record.status === "success") {
      const video = await fetch(record.data[0]!.url);
      const bytes = (await video.arrayBuffer()).byteLength;
      return { wall: performance.now() - started, bytes };
    }
    if (record.status === "failed") throw new Error(`task failed: ${record.error?.message}`);
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}

const defaults = await startBenchSandbox();
try {
  const { wall, bytes } = await runTask(defaults.baseUrl, POLL_INTERVAL_MS);
  console.log(`sandbox video task, default timings (pending ${defaultSandboxConfig.pendingMs / 1000} s, processing ≥${defaultSandboxConfig.processingMs / 1000} s), polled every 5 s: ${ms(wall)} end to end, MP4 ${(bytes / 1024).toFixed(0)} KB`);
} finally {
  await defaults.stop();
}

const instant = await startBenchSandbox({ pendingMs: 0, processingMs: 0 });
try {
  const { wall } = await runTask(instant.baseUrl, 50);
  console.log(`sandbox video task, no artificial waits (render only, 640x360 3 s), polled every 50 ms: ${ms(wall)} end to end`);
} finally {
  await instant.stop();
}
