import type { StudioAuth } from "./auth";
import type { ServerConfig } from "./env";
import type { StudioEvents } from "./events";
import type { GenerationService } from "./generation-service";
import type { IngestLimits } from "./ingest";
import type { Ledger } from "./ledger/ledger";
import type { Logger } from "./logger";
import type { MediaMirror } from "./media-mirror";
import type { UpstreamClient } from "./upstream";

/** What the routes need, built once at start-up (see create-studio.ts). */
export interface StudioDeps {
  config: ServerConfig;
  ledger: Ledger;
  service: GenerationService;
  events: StudioEvents;
  mirror: MediaMirror;
  upstream: UpstreamClient;
  auth: StudioAuth;
  log: Logger;
  ingestLimits: IngestLimits;
  /** True when the upstream is the embedded sandbox. */
  sandbox: boolean;
  pollIntervalMs: number;
}
