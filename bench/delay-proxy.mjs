// A slow link for the sync benchmark: a node:http proxy, in a process of its own (its work is
// not the syncing process's), that forwards each request to TARGET and sends the answer
// DELAY_MS late, as a remote across a slow network does. Connections to TARGET are kept alive
// and not limited, so the proxy adds its delay and nothing else. Stopped (SIGTERM), it prints
// the most requests it had in flight at once: the sync's pages in flight.
// Usage: node delay-proxy.mjs TARGET_URL DELAY_MS
import http from 'node:http';

const target = new URL(process.argv[2]);
const delayMs = Number(process.argv[3]);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
let inFlight = 0;
let mostInFlight = 0;
const server = http.createServer((req, res) => {
  mostInFlight = Math.max(mostInFlight, ++inFlight);
  res.once('close', () => inFlight--);
  const upstream = http.request(
    { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent },
    (answer) => {
      setTimeout(() => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }, delayMs);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => {
  console.log(`most in flight: ${mostInFlight}`);
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
