/**
 * Status GET for a finished video task: through the studio server versus straight to the sandbox,
 * 100 connections each, in the same run. Prints requests per second, their ratio and the added p99.
 */
import autocannon from "autocannon";
import { videoTaskRecordSchema } from "../src/api/provider";
import { startSandboxAndStudio } from "./processes";

const CONNECTIONS = 100;
const SECONDS = 10;

const { key: KEY, sandbox, studio, stop } = await startSandboxAndStudio({ SANDBOX_PENDING_MS: "0", SANDBOX_PROCESSING_MS: "0" });

try {
  const submitted = await fetch(`${studio.url}/api/ai/videos`, {
    method: "POST",
    headers: { authorization: "Bearer script", "content-type": "application/json" },
    body: JSON.stringify({ prompt: "status bench", model: "sandbox-video-1", size: "128x72" }),
  });
  const { id } = (await submitted.json()) as { id: string };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const record = videoTaskRecordSchema.parse(await (await fetch(`${studio.url}/api/ai/videos/${id}`, { headers: { authorization: "Bearer script" } })).json());
    if (record.status === "success") break;
    if (Date.now() > deadline) throw new Error(`task did not finish: ${record.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const run = (url: string, authorization: string) =>
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { authorization } });
  const direct = await run(`${sandbox.url}/api/ai/videos/${id}`, `Bearer ${KEY}`);
  const proxied = await run(`${studio.url}/api/ai/videos/${id}`, "Bearer script");

  const line = (label: string, result: autocannon.Result) =>
    `${label}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`;
  console.log(`status GET of a finished task, ${CONNECTIONS} connections, ${SECONDS} s each`);
  console.log(line("  direct to sandbox   ", direct));
  console.log(line("  through the studio  ", proxied));
  console.log(`  ratio studio/direct: ${(proxied.requests.average / direct.requests.average).toFixed(2)}`);
  console.log(`  added p99 latency: ${proxied.latency.p99 - direct.latency.p99} ms`);
} finally {
  await stop();
}
