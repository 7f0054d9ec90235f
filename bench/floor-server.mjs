// The benchmark's floor: a bare node:http server answering precomputed bodies, in a process of
// its own as the real server is. Usage: node floor-server.mjs BODIES.json (path -> base64 body).
import fs from 'node:fs';
import http from 'node:http';

const bodies = new Map(
  Object.entries(JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))).map(([path, body]) => [path, Buffer.from(body, 'base64')]),
);
const empty = Buffer.from('{}');
const server = http.createServer((req, res) => {
  const body = bodies.get(req.url ?? '') ?? empty;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
