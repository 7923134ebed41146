import { KeyRound } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../../components/ui/button";
import { Input, Label } from "../../../components/ui/input";
import { isApiError } from "../../../lib/api-client";
import { describeError } from "../../../lib/error-messages";
import { useCreateSession } from "../api/create-session";

export function SignInScreen() {
  const [token, setToken] = useState("");
  const signIn = useCreateSession();
  const tokenId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) signIn.mutate(token.trim());
  };

  const error = signIn.error
    ? isApiError(signIn.error) && signIn.error.status === 401
      ? "That token wasn't accepted. Check it and try again."
      : describeError(signIn.error).message
    : null;

  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <form onSubmit={onSubmit} className="flex w-full max-w-sm flex-col gap-4 rounded-panel border border-line bg-surface p-6 shadow-panel" aria-labelledby="sign-in-title">
        <div className="flex items-center gap-2.5">
          <span className="flex size-9 items-center justify-center rounded-full bg-accent-soft text-accent">
            <KeyRound aria-hidden className="size-4" />
          </span>
          <div>
            <h1 id="sign-in-title" className="text-base font-semibold">
              Sign in to Media Studio
            </h1>
            <p className="text-xs text-ink-muted">Enter the access token your team shared.</p>
          </div>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={tokenId}>Access token</Label>
          <Input
            id={tokenId}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={token}
            onChange={(event) => setToken(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${tokenId}-error` : undefined}
          />
          {error ? (
            <p id={`${tokenId}-error`} role="alert" className="text-xs text-danger">
              {error}
            </p>
          ) : null}
        </div>
        <Button type="submit" variant="primary" size="lg" disabled={!token.trim() || signIn.isPending}>
          {signIn.isPending ? "Signing in…" : "Sign in"}
        </Button>
      </form>
    </main>
  );
}
