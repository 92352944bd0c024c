const money = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});

/** `75000` -> `$75,000` (the spec's price format). */
export function formatPrice(amount: number): string {
  return money.format(amount);
}

const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 1,002nd. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13
      ? "th"
      : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${whole.format(n)}${suffix}`;
}

/** The display name of a racer. */
export function racerName(r: { firstName: string; lastName: string }): string {
  return `${r.firstName} ${r.lastName}`.trim();
}
