import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createSandboxApp } from "./app";
import type { SandboxConfig } from "./config";
import { renderVideo } from "./render-video";
import { TaskManager } from "./tasks";

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:8790 — the provider's {base_url}. */
  baseUrl: string;
  close: () => Promise<void>;
}

export interface StartSandboxOptions {
  config: SandboxConfig;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/** Starts the sandbox provider on a real socket and resumes its persisted tasks. */
export async function startSandbox({ config, host = "127.0.0.1", port = 0, log = logJson }: StartSandboxOptions): Promise<RunningSandbox> {
  let baseUrl = "";
  const fileUrl = (name: string) => `${baseUrl}/files/${name}`;
  const tasks = new TaskManager(config, { renderVideo, fileUrl, log });
  const app = createSandboxApp({ config, tasks, fileUrl, log });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(started));
    started.once("error", reject);
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${formatHost(host)}:${address.port}`;
  await tasks.resume();

  return {
    baseUrl,
    close: async () => {
      await tasks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
    },
  };
}

function formatHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export function logJson(message: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), source: "sandbox", message, ...fields }));
}
