import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can go silent on some of its connections, as a NAT or a
 * load balancer that forgot them does: bytes stop flowing both ways, and nobody is told (no FIN, no
 * RST, no error). A connection is picked by what its client says when it starts (e.g. its
 * application_name), which PostgreSQL's startup message carries in clear text.
 */
export interface SilentProxy {
  /** The address to give the app instead of the database's (same database, user and password). */
  url(databaseUrl: string): string;
  /** Silences every connection open now whose startup message contains `marker`; returns how many. */
  silence(marker: string): number;
  close(): Promise<void>;
}

export async function startSilentProxy(target: { host: string; port: number }): Promise<SilentProxy> {
  const connections = new Set<{ client: net.Socket; server: net.Socket; startup: string; silent: boolean }>();
  const proxy = net.createServer((client) => {
    const server = net.connect(target.port, target.host);
    const connection = { client, server, startup: '', silent: false };
    connections.add(connection);
    client.on('data', (chunk: Buffer) => {
      // The first message a client sends is its startup message (user, database, application_name).
      if (!connection.startup) connection.startup = chunk.toString('latin1');
      if (!connection.silent) server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      if (!connection.silent) client.write(chunk);
    });
    const end = () => {
      connections.delete(connection);
      client.destroy();
      server.destroy();
    };
    client.on('close', end);
    server.on('close', end);
    client.on('error', end);
    server.on('error', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;
  return {
    url(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    silence(marker) {
      let count = 0;
      for (const connection of connections) {
        if (!connection.silent && connection.startup.includes(marker)) {
          connection.silent = true;
          count++;
        }
      }
      return count;
    },
    async close() {
      for (const { client, server } of connections) {
        client.destroy();
        server.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
