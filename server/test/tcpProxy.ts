import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server, for outages in tests: `freeze` lets nothing through either way
 * (a server or link that stops answering) until `thaw`; `refuse` stops taking connections (a server
 * that is down) until `accept`; connections already made stay.
 */
export async function tcpProxy(targetPort: number, targetHost = '127.0.0.1') {
  const pairs = new Set<[Socket, Socket]>();
  let frozen = false;
  const join = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const onConnection = (client: Socket) => {
    const upstream = connect(targetPort, targetHost);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of pair) socket.on('error', end).on('close', end);
    if (!frozen) join(pair);
  };
  // One listening server at a time: a closed one still holds the connections it took.
  const listen = (port: number) =>
    new Promise<Server>((resolve) => {
      const server = createServer(onConnection);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  let server: Server | null = await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    freeze() {
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream).pause();
        upstream.unpipe(client).pause();
      }
    },
    thaw() {
      frozen = false;
      pairs.forEach(join);
    },
    refuse() {
      server?.close();
      server = null;
    },
    async accept() {
      server ??= await listen(port);
    },
    close() {
      this.refuse();
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
  };
}
