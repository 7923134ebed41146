import { Moon, Sun } from "lucide-react";
import { useEffect } from "react";
import { Button } from "../components/ui/button";
import { useStudioStore, type Theme } from "../stores/studio-store";

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", theme === "dark" ? "#0f0f11" : "#f6f6f7");
}

/** Keeps <html class="dark"> in step with the persisted theme. */
export function ThemeSync() {
  const theme = useStudioStore((state) => state.theme);
  useEffect(() => applyTheme(theme), [theme]);
  return null;
}

export function ThemeToggle() {
  const theme = useStudioStore((state) => state.theme);
  const toggleTheme = useStudioStore((state) => state.toggleTheme);
  const next = theme === "dark" ? "light" : "dark";
  return (
    <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme`}>
      {theme === "dark" ? <Sun aria-hidden /> : <Moon aria-hidden />}
    </Button>
  );
}
