/**
 * The engine's floor: a bare Socket.IO server speaking just enough of the screen protocol for
 * the same client code — it answers screen:register and, on POST /trigger, broadcasts a
 * scene-sized payload (BARE_PAYLOAD, a real Nature Wall scene) to every wall.
 */
import http from 'node:http';
import { Server } from 'socket.io';

const payload = JSON.parse(process.env.BARE_PAYLOAD ?? '{}') as { scene: unknown; streams: unknown[] };
let version = 1;

const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return res.end('ok');
  if (req.method === 'POST' && req.url === '/trigger') {
    version += 1;
    io.to('walls').emit('scene:default-changed', { version, ...payload });
    res.statusCode = 204;
    return res.end();
  }
  res.statusCode = 404;
  res.end();
});
const io = new Server(server, { serveClient: false });
io.on('connection', (socket) => {
  socket.on('screen:register', async (_registration: unknown, ack: (r: unknown) => void) => {
    await socket.join('walls');
    ack({ data: { kind: 'wall', version, follows: null, ...payload, problem: null } });
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => io.close(() => process.exit(0)));
