'use strict';
/**
 * The shared life of a benchmark server process: listen on 127.0.0.1 (port 0: the OS picks),
 * tell the parent the port over IPC, and answer its `stats` questions with RSS and CPU figures.
 * Peak RSS comes from getrusage (ru_maxrss), so it catches peaks between samples too; CPU time
 * (user + system, µs) lets the parent charge each request its own cost, whatever else runs.
 */
const http = require('http');

/**
 * Serve `app` (a request listener) and talk to the parent; `name` labels errors. `handlers` adds
 * message types: each returns the fields of its answer.
 */
function serveChild(name, app, handlers = {}) {
  const server = http.createServer(app);
  // Idle sockets stay open across the pauses between load runs (Node's default closes them after 5 s).
  server.keepAliveTimeout = 65000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    send({ type: 'ready', name, port: address.port, pid: process.pid });
  });
  process.on('message', (message) => {
    if (message && message.type === 'stats') {
      const usage = process.resourceUsage();
      send({ type: 'stats', id: message.id, rss: process.memoryUsage.rss(), maxRSS: usage.maxRSS * 1024, cpu: usage.userCPUTime + usage.systemCPUTime });
    } else if (message && message.type === 'gc') {
      // Only with --expose-gc; the answer says whether it ran.
      const available = typeof global.gc === 'function';
      if (available) global.gc();
      send({ type: 'gc', id: message.id, ran: available });
    } else if (message && typeof handlers[message.type] === 'function') {
      send({ ...handlers[message.type](message), type: message.type, id: message.id });
    } else if (message && message.type === 'exit') {
      process.exit(0);
    }
  });
  // The parent went away (Ctrl-C, crash): do not linger.
  process.on('disconnect', () => process.exit(0));
}

function send(message) {
  if (process.send) process.send(message);
}

module.exports = { serveChild };
