import { ensureProductionBuild } from "./fixtures/web-build";

/** Builds the SPA once (when dist/ is missing or older than its sources); the test servers then skip building. */
export default function globalSetup(): void {
  ensureProductionBuild();
}
