import { InvalidArgumentError } from "commander";

/** An expected failure: printed as one line on stderr, exit code 1 (2 for usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** Commander argument parser: a positive integer id (else a usage error, exit 2). */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError("must be a positive whole number.");
  }
  return n;
}
