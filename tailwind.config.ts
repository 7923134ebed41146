import type { Config } from "tailwindcss";

/**
 * Media Studio design tokens. Colours are CSS variables (defined in src/web/styles/globals.css for
 * the dark default and the light theme) so one class works in both themes; Tailwind 4 loads this
 * file through `@config` in globals.css.
 */
const tokenColour = (name: string) => `var(--color-${name})`;

export default {
  darkMode: "class",
  content: ["./index.html", "./src/web/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        canvas: tokenColour("canvas"),
        surface: {
          DEFAULT: tokenColour("surface"),
          raised: tokenColour("surface-raised"),
          sunken: tokenColour("surface-sunken"),
        },
        line: {
          DEFAULT: tokenColour("line"),
          strong: tokenColour("line-strong"),
        },
        ink: {
          DEFAULT: tokenColour("ink"),
          muted: tokenColour("ink-muted"),
          faint: tokenColour("ink-faint"),
        },
        accent: {
          DEFAULT: tokenColour("accent"),
          ink: tokenColour("accent-ink"),
          soft: tokenColour("accent-soft"),
        },
        danger: { DEFAULT: tokenColour("danger"), soft: tokenColour("danger-soft") },
        success: { DEFAULT: tokenColour("success"), soft: tokenColour("success-soft") },
        warning: { DEFAULT: tokenColour("warning"), soft: tokenColour("warning-soft") },
        focus: tokenColour("focus"),
      },
      fontFamily: {
        sans: [
          "Inter",
          "ui-sans-serif",
          "system-ui",
          "-apple-system",
          "Segoe UI",
          "Roboto",
          "Helvetica Neue",
          "Arial",
          "sans-serif",
        ],
        mono: ["JetBrains Mono", "ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "monospace"],
      },
      fontSize: {
        "2xs": ["0.6875rem", { lineHeight: "1rem" }],
      },
      borderRadius: {
        control: "0.5rem",
        panel: "0.875rem",
      },
      boxShadow: {
        panel: "0 1px 0 0 var(--color-shadow-edge), 0 8px 24px -12px var(--color-shadow)",
        pop: "0 24px 64px -16px var(--color-shadow)",
      },
      keyframes: {
        shimmer: {
          "0%": { backgroundPosition: "-200% 0" },
          "100%": { backgroundPosition: "200% 0" },
        },
        "toast-in": {
          from: { opacity: "0", transform: "translateY(8px) scale(0.98)" },
          to: { opacity: "1", transform: "translateY(0) scale(1)" },
        },
        "fade-in": { from: { opacity: "0" }, to: { opacity: "1" } },
      },
      animation: {
        shimmer: "shimmer 1.8s linear infinite",
        "toast-in": "toast-in 160ms ease-out",
        "fade-in": "fade-in 120ms ease-out",
      },
      transitionTimingFunction: {
        calm: "cubic-bezier(0.2, 0, 0, 1)",
      },
    },
  },
} satisfies Config;
