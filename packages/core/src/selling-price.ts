/*
 * What a racer on a player's team is worth to their budget (docs/decisions/0141), FPL's rule:
 * selling refunds today's price after a fall, and the price paid plus half the rise after a rise.
 * A team keeps a budget of its own (1,000,000 to start) that each sale moves by what it gained or
 * lost against the price paid; the bank is that budget minus the prices paid for the racers held.
 * Pure, so the save, the team builders, the carry-over and the About page apply one rule.
 */
import { PRICE_STEP } from "./pricing.js";

/** A racer on the player's saved team: what was paid for them, and their price today. */
export interface HeldRacer {
  paid: number;
  now: number;
}

/**
 * What selling a racer gives back: today's price when it is at or below the price paid (the fall
 * is the player's loss, so selling and buying back never gains), else the price paid plus half
 * the rise, rounded down to the 1,000 step.
 */
export function sellingPrice(paid: number, now: number): number {
  if (now <= paid) return now;
  return paid + Math.floor((now - paid) / (2 * PRICE_STEP)) * PRICE_STEP;
}

/**
 * What the player has to build a team with: the team's budget, moved by what selling each racer
 * of the saved team would gain or lose. That is the bank plus the team's selling value; a draft
 * is within budget when its racers, each at `draftPrice`, cost no more.
 */
export function teamWorth(budget: number, held: Iterable<HeldRacer>): number {
  let worth = budget;
  for (const r of held) worth += sellingPrice(r.paid, r.now) - r.paid;
  return worth;
}

/**
 * What a racer costs in a draft: a racer of the saved team their selling price (what taking them
 * off gives back, and putting them back takes), anyone else today's price.
 */
export function draftPrice(now: number, held?: HeldRacer): number {
  return held ? sellingPrice(held.paid, held.now) : now;
}

/**
 * The team's budget once `draft` is saved: every racer of the saved team left out is sold, and
 * moves it by the sale's gain or loss against the price paid. Racers kept keep their price paid;
 * racers bought are paid today's price.
 */
export function budgetAfterSave(
  budget: number,
  held: ReadonlyMap<number, HeldRacer>,
  draft: Iterable<number>,
): number {
  const kept = new Set(draft);
  let next = budget;
  for (const [id, r] of held) {
    if (!kept.has(id)) next += sellingPrice(r.paid, r.now) - r.paid;
  }
  return next;
}
