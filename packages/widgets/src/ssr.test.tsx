// @vitest-environment node
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createGameClient } from "./client.js";
import { EventCard, EventList } from "./event-list.js";
import { events, leagueRows, playerRows, racers, requirements } from "./fixtures.js";
import { GravityProvider, useEvents } from "./hooks.js";
import { LeagueRankings } from "./league-rankings.js";
import { PlayerRankings } from "./player-rankings.js";
import { RacerTable } from "./racer-table.js";
import { RequirementChecklist } from "./requirement-checklist.js";
import { TeamGrid } from "./team-grid.js";

const probeClient = createGameClient({
  baseUrl: "https://x.example",
  fetch: () => {
    throw new Error("fetch must not run during a server render");
  },
});

function HookProbe() {
  const { loading, data } = useEvents();
  return <EventList events={data?.data ?? []} loading={loading} />;
}

describe("server rendering (no DOM globals)", () => {
  it("runs without window or document", () => {
    expect(typeof window).toBe("undefined");
    expect(typeof document).toBe("undefined");
  });

  const cases: [string, () => React.ReactElement][] = [
    ["TeamGrid", () => <TeamGrid racers={racers.slice(0, 3)} onRemove={() => {}} budget={1e6} />],
    [
      "TeamGrid (links, meta, aside)",
      () => (
        <TeamGrid
          racers={racers.slice(0, 3)}
          readOnly
          racerHref={(r) => `/racers/${r.id}`}
          renderMeta={(r) => r.category}
          renderAside={(r) => <strong>{r.price}</strong>}
        />
      ),
    ],
    [
      "RacerTable",
      () => <RacerTable racers={racers} action={{ disabledReason: () => "Team full" }} />,
    ],
    ["RequirementChecklist", () => <RequirementChecklist requirements={requirements} />],
    [
      "PlayerRankings",
      () => (
        <PlayerRankings
          rows={playerRows(20)}
          me={{ rank: 99, username: "me" }}
          page={1}
          pageCount={4}
          pageHref={(p) => `?page=${p}`}
        />
      ),
    ],
    [
      "LeagueRankings",
      () => <LeagueRankings rows={leagueRows(5)} page={2} pageCount={3} onPageChange={() => {}} />,
    ],
    ["EventCard", () => <EventCard event={events[0]!} eventHref={(e) => `/game/${e.id}`} />],
    ["EventList", () => <EventList events={events} visitor signInHref="/login" />],
  ];

  for (const [name, element] of cases) {
    it(`renders ${name} to a string`, () => {
      const html = renderToString(element());
      expect(html).toMatch(/^<[a-z]+ class="gf-root /);
    });
  }

  it("renders the hooks' loading state without fetching", () => {
    expect(
      renderToString(
        <GravityProvider client={probeClient}>
          <HookProbe />
        </GravityProvider>,
      ),
    ).toContain("Loading...");
  });

  it("renders the same markup twice (stable ids, dates and numbers)", () => {
    const a = renderToString(<EventList events={events} timeZone="Europe/Paris" />);
    const b = renderToString(<EventList events={events} timeZone="Europe/Paris" />);
    expect(a).toBe(b);
    expect(a).toContain("Sunday 4 May 2025, 11:00 CEST");
  });
});
