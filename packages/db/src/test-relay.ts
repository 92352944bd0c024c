/**
 * A real lost connection for tests: a TCP relay in front of a database that cuts both sides the
 * moment the client sends a chosen statement (nothing of that message is forwarded). The cut
 * lands at the same point of a run every time, whatever the machine's speed.
 */
import net from "node:net";

export interface CuttingRelay {
  /** `url` with the relay's address: connect through this. */
  url: string;
  /** Whether the statement came and the connection was cut. */
  cut(): boolean;
  close(): Promise<void>;
}

/**
 * Relays to the database of `url` until a message from the client contains `marker` (compared
 * case-insensitively with the message's bytes), then drops that connection. With `after`, only
 * once a message containing `after` has gone through (a COMMIT, but the import's, not the
 * migrations'). Only the first matching message cuts; later connections are relayed as usual.
 */
export async function cuttingRelay(
  url: string,
  marker: string,
  opts: { after?: string } = {},
): Promise<CuttingRelay> {
  const target = new URL(url);
  const wanted = marker.toLowerCase();
  let armingWord = opts.after?.toLowerCase();
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    upstream.on("data", (data) => client.write(data));
    // The end of the previous chunk: a marker split across two reads still cuts (before the
    // message is complete, so the server never runs it).
    let tail = "";
    client.on("data", (data: Buffer) => {
      const text = tail + data.toString("latin1").toLowerCase();
      if (!cut && !armingWord && text.includes(wanted)) {
        cut = true;
        drop();
        return;
      }
      if (armingWord && text.includes(armingWord)) armingWord = undefined;
      tail = text.slice(-Math.max(wanted.length, armingWord?.length ?? 0));
      upstream.write(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const through = new URL(url);
  through.hostname = "127.0.0.1";
  through.port = String((server.address() as net.AddressInfo).port);
  return {
    url: through.toString(),
    cut: () => cut,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
