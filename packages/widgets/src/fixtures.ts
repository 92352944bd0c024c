/** Sample data for tests and stories (not part of the published entry points). */
import type { GameEvent, LeagueRanking, PlayerRanking, Racer, Requirement } from "./types.js";
import { CATEGORIES } from "./types.js";

const FIRST = [
  "Loic",
  "Amaury",
  "Jackson",
  "Loris",
  "Troy",
  "Finn",
  "Andreas",
  "Dakotah",
  "Luca",
  "Ronan",
];
const FIRST_W = [
  "Vali",
  "Tahnee",
  "Myriam",
  "Nina",
  "Marine",
  "Gracey",
  "Camille",
  "Eleonora",
  "Mille",
  "Anna",
];
const LAST = [
  "Bruni",
  "Pierron",
  "Goldstone",
  "Vergier",
  "Brosnan",
  "Iles",
  "Kolb",
  "Norton",
  "Shaw",
  "Dunne",
];

export const racers: Racer[] = [
  {
    id: 1,
    category: "Pro Men",
    firstName: "Loic",
    lastName: "Bruni",
    picture: "loic_bruni.jpg",
    rank2024: 3,
    price: 180000,
  },
  {
    id: 2,
    category: "Pro Men",
    firstName: "Amaury",
    lastName: "Pierron",
    picture: "amaury_pierron.jpg",
    rank2024: 1,
    price: 200000,
  },
  {
    id: 3,
    category: "Pro Men",
    firstName: "Jackson",
    lastName: "Goldstone",
    picture: null,
    rank2024: 2,
    price: 190000,
  },
  {
    id: 4,
    category: "Pro Men",
    firstName: "Newcomer",
    lastName: "Rider",
    picture: null,
    rank2024: 0,
    price: 75000,
  },
  {
    id: 5,
    category: "Pro Women",
    firstName: "Vali",
    lastName: "Höll",
    picture: "vali_holl.jpg",
    rank2024: 1,
    price: 160000,
  },
  {
    id: 6,
    category: "Pro Women",
    firstName: "Tahnee",
    lastName: "Seagrave",
    picture: "",
    rank2024: 2,
    price: 150000,
  },
  {
    id: 7,
    category: "17-18 Men",
    firstName: "Asa",
    lastName: "Vermette",
    picture: null,
    rank2024: 1,
    price: 90000,
  },
  {
    id: 8,
    category: "17-18 Women",
    firstName: "Erice",
    lastName: "van Leuven",
    picture: null,
    rank2024: 4,
    price: 80000,
  },
];

/** `count` racers spread over the four categories, deterministic. */
export function manyRacers(count: number): Racer[] {
  return Array.from({ length: count }, (_, i) => {
    const category = CATEGORIES[i % 4]!;
    const women = category.endsWith("Women");
    return {
      id: 1000 + i,
      category,
      firstName: (women ? FIRST_W : FIRST)[i % 10]!,
      lastName: `${LAST[(i * 7) % 10]}${i >= 10 ? ` ${Math.floor(i / 10)}` : ""}`,
      picture: null,
      rank2024: i % 9 === 0 ? 0 : Math.floor(i / 4) + 1,
      price: 75000 + ((i * 37) % 20) * 5000,
    };
  });
}

export const longNameRacers: Racer[] = [
  {
    id: 901,
    category: "Pro Men",
    firstName: "Maximilian-Alexander",
    lastName: "Vandenberghe-Oberhollenzer de la Montagne",
    picture: null,
    rank2024: 12,
    price: 1250000,
  },
  {
    id: 902,
    category: "Pro Men",
    firstName: "Wolfeschlegelsteinhausenbergerdorff",
    lastName: "Jr.",
    picture: "missing.jpg",
    rank2024: 0,
    price: 75000,
  },
];

export const requirements: Requirement[] = [
  { id: "size", label: "6 riders", met: false, detail: "4/6" },
  { id: "female", label: "At least 2 female riders", met: true, detail: "2/2" },
  { id: "junior", label: "At least 1 junior rider", met: false, detail: "0/1" },
  { id: "budget", label: "Within budget", met: true, detail: "310,000 left" },
];

export const events: GameEvent[] = [
  {
    id: 5,
    name: "Pro Downhill Series Round 1",
    status: "open",
    startsAt: "2025-05-04T09:00:00Z",
    cover: "/img/events/5-cover.jpg",
    logo: "/img/events/5-logo.png",
  },
  {
    id: 6,
    name: "Pro Downhill Series Round 2",
    status: "closed",
    startsAt: "2025-06-08T09:00:00Z",
    cover: null,
    logo: null,
  },
  {
    id: 1,
    name: "World Cup Fort William",
    status: "archived",
    startsAt: "2024-05-05T12:00:00Z",
    cover: null,
    logo: null,
  },
];

export function playerRows(count: number, from = 1): PlayerRanking[] {
  return Array.from({ length: count }, (_, i) => {
    const rank = from + i;
    return {
      rank,
      id: `u${rank}`,
      username: `rider_${rank}`,
      points: Math.max(0, 1000 - rank * 7),
      previousRank: rank % 3 === 0 ? rank + 2 : rank % 3 === 1 ? rank : rank - 1,
    };
  });
}

export function leagueRows(count: number, from = 1): LeagueRanking[] {
  return Array.from({ length: count }, (_, i) => ({
    rank: from + i,
    id: from + i,
    name: `League ${from + i}`,
    totalPoints: Math.max(0, 500 - (from + i) * 3.25),
  }));
}
