/** Median time for the sandbox to generate one 1024×1024 image over HTTP (request to PNG URL). */
import { imageResultSchema } from "../src/api/provider";
import { benchAuth, median, ms, percentile, startBenchSandbox } from "./sandbox-bench-support";

const RUNS = 20;
const sandbox = await startBenchSandbox();
try {
  const timings: number[] = [];
  for (let run = 0; run < RUNS + 2; run++) {
    const started = performance.now();
    const response = await fetch(`${sandbox.baseUrl}/api/ai/images/generations`, {
      method: "POST",
      headers: { ...benchAuth, "content-type": "application/json" },
      body: JSON.stringify({ prompt: `a lighthouse on a cliff at dusk, variation ${run}`, model: "sandbox-image", aspect_ratio: "1:1" }),
    });
    imageResultSchema.parse(await response.json());
    if (run >= 2) timings.push(performance.now() - started);
  }
  console.log(`sandbox image 1024x1024 (${RUNS} runs after 2 warm-up): median ${ms(median(timings))}, p95 ${ms(percentile(timings, 95))}`);
} finally {
  await sandbox.stop();
}
