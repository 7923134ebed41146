import { Input, Label } from "../../../components/ui/input";

interface ModelFieldProps {
  id: string;
  models: readonly string[];
  value: string;
  onChange: (value: string) => void;
}

/** A combobox: pick a known model from the list or type any model id. */
export function ModelField({ id, models, value, onChange }: ModelFieldProps) {
  const listId = `${id}-options`;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <Label htmlFor={id}>Model</Label>
      <Input
        id={id}
        list={listId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={models[0] ?? "model id"}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        className="font-mono text-xs"
      />
      <datalist id={listId}>
        {models.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
      <p id={`${id}-hint`} className="sr-only">
        Pick a listed model or type any model id.
      </p>
    </div>
  );
}
