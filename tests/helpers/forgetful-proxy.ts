import net from 'node:net';
import type { SilentProxy } from './silent-proxy.js';

/**
 * A TCP proxy in front of PostgreSQL that can go silent on some of its connections the way a NAT or
 * a load balancer that forgot them does: bytes stop flowing both ways, nobody is told, and when the
 * client then gives up on such a connection the server is not told either. Its side stays open (its
 * backend lingers, as it would behind a real NAT) until the proxy closes. A connection is picked by
 * what its client says when it starts (e.g. its application_name), which PostgreSQL's startup message
 * carries in clear text. (./silent-proxy.ts, by contrast, closes the server's side with the client's.)
 */
export async function startForgetfulProxy(target: { host: string; port: number }): Promise<SilentProxy> {
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
      client.destroy();
      // Forgotten: the server hears nothing of the client going away.
      if (connection.silent) return;
      connections.delete(connection);
      server.destroy();
    };
    client.on('close', end);
    client.on('error', end);
    server.on('close', () => {
      connections.delete(connection);
      client.destroy();
    });
    server.on('error', () => server.destroy());
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
        if (!connection.silent && !connection.client.destroyed && connection.startup.includes(marker)) {
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
