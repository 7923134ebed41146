import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The studio server the dev server forwards API and media requests to (`npx tsx src/server/main.ts`). */
const studioServer = process.env.STUDIO_DEV_TARGET ?? "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: keep them in their own long-lived chunks.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            { name: "zod", test: /node_modules[\\/]zod[\\/]/, priority: 2 },
            { name: "vendor", test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: studioServer, changeOrigin: false },
      "/media": { target: studioServer, changeOrigin: false },
    },
  },
});
