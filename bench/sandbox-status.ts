/** Status GET requests per second against the sandbox for a finished task, 50 connections (autocannon). */
import autocannon from "autocannon";
import { taskAcceptanceSchema, videoTaskRecordSchema } from "../src/api/provider";
import { BENCH_KEY, benchAuth, startBenchSandbox } from "./sandbox-bench-support";

const sandbox = await startBenchSandbox({ pendingMs: 0, processingMs: 0 });
try {
  const submitted = await fetch(`${sandbox.baseUrl}/api/ai/videos`, {
    method: "POST",
    headers: { ...benchAuth, "content-type": "application/json" },
    body: JSON.stringify({ prompt: "status bench", model: "sandbox-video", size: "128x72" }),
  });
  const { id } = taskAcceptanceSchema.parse(await submitted.json());
  for (;;) {
    const record = videoTaskRecordSchema.parse(await (await fetch(`${sandbox.baseUrl}/api/ai/videos/${id}`, { headers: benchAuth })).json());
    if (record.status === "success") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const result = await autocannon({
    url: `${sandbox.baseUrl}/api/ai/videos/${id}`,
    connections: 50,
    duration: 10,
    headers: { authorization: `Bearer ${BENCH_KEY}` },
  });
  console.log(
    `sandbox status GET, 50 connections, 10 s: ${Math.round(result.requests.average)} req/s average, ` +
      `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
} finally {
  await sandbox.stop();
}
