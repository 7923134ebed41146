import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["src/{api,sandbox,server}/**/*.test.ts"],
          environment: "node",
          pool: "forks",
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: "web",
          include: ["src/web/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["src/web/test/setup.ts"],
        },
      },
    ],
  },
});
