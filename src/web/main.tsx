import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { applyTheme } from "./app/theme";
import { sessionQueryOptions } from "./features/auth/api/get-session";
import { configQueryOptions } from "./features/config/api/get-config";
import { galleryQueryOptions } from "./features/generations/api/list-generations";
import { createQueryClient } from "./lib/query-client";
import { useStudioStore } from "./stores/studio-store";
import "./styles/globals.css";

// Apply the saved theme before the first paint.
applyTheme(useStudioStore.getState().theme);

// Ask for the session, the form's config and the first gallery page side by side, before React
// even renders.
const queryClient = createQueryClient();
void queryClient.prefetchQuery(sessionQueryOptions());
void queryClient.prefetchQuery(configQueryOptions());
void queryClient.prefetchInfiniteQuery(galleryQueryOptions({ kind: null, q: "", favourite: false }));

const root = document.getElementById("root");
if (!root) throw new Error("Media Studio: #root is missing from index.html.");

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
