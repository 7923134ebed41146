import { Segmented } from "../../../components/ui/segmented";
import { useStudioStore } from "../../../stores/studio-store";

function RatioGlyph({ ratio }: { ratio: string }) {
  const [w = 1, h = 1] = ratio.split(":").map(Number);
  const scale = 12 / Math.max(w, h);
  return (
    <span aria-hidden className="flex size-3.5 items-center justify-center">
      <span
        className="rounded-[2px] border-[1.5px] border-current opacity-70"
        style={{ width: Math.max(4, w * scale), height: Math.max(4, h * scale) }}
      />
    </span>
  );
}

export function AspectRatioField({ ratios }: { ratios: readonly string[] }) {
  const value = useStudioStore((state) => state.aspectRatio);
  const setAspectRatio = useStudioStore((state) => state.setAspectRatio);
  return (
    <Segmented
      name="aspect-ratio"
      legend="Aspect ratio"
      value={value}
      onChange={setAspectRatio}
      listClassName="grid grid-cols-4"
      options={ratios.map((ratio) => ({
        value: ratio,
        ariaLabel: ratio,
        label: (
          <>
            <RatioGlyph ratio={ratio} />
            <span className="font-mono text-2xs">{ratio}</span>
          </>
        ),
      }))}
    />
  );
}

export function ImageCountField() {
  const count = useStudioStore((state) => state.imageCount);
  const setImageCount = useStudioStore((state) => state.setImageCount);
  return (
    <Segmented
      name="image-count"
      legend="Images"
      value={String(count) as "1" | "2" | "3" | "4"}
      onChange={(value) => setImageCount(Number(value))}
      options={(["1", "2", "3", "4"] as const).map((value) => ({
        value,
        label: value,
        ariaLabel: `${value} ${value === "1" ? "image" : "images"}`,
      }))}
    />
  );
}
