const money = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});

/** `75000` -> `$75,000` (the spec's price format). */
export function formatPrice(amount: number): string {
  return money.format(amount);
}

/** The display name of a racer. */
export function racerName(r: { firstName: string; lastName: string }): string {
  return `${r.firstName} ${r.lastName}`.trim();
}
