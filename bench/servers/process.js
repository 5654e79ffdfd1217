'use strict';
/**
 * A benchmark server in its own child process: start it (fork + IPC), ask it for RSS figures,
 * stop it. Each server gets its own process so neither competes with the other's heap or event
 * loop, and peak RSS belongs to one server.
 */
const { fork } = require('child_process');
const path = require('path');

const SERVER_FILES = Object.freeze({
  ours: path.join(__dirname, 'ours.js'),
  ceiling: path.join(__dirname, 'ceiling.js'),
});

/**
 * Start server `name` ('ours' or 'ceiling', or any name with `file`); resolves once it listens.
 * `execArgv` adds Node flags (e.g. --cpu-prof), `env` environment variables.
 */
function startServer(name, { file = SERVER_FILES[name], execArgv = [], env = {}, startTimeoutMs = 60000 } = {}) {
  if (file === undefined) return Promise.reject(new Error(`unknown server '${name}'`));
  const child = fork(file, [], {
    cwd: path.join(__dirname, '..', '..'),
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const pending = new Map();
  let nextId = 1;
  child.on('message', (message) => {
    const resolve = message && pending.get(message.id);
    if (resolve) {
      pending.delete(message.id);
      resolve(message);
    }
  });
  const ask = (type, fields = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${name}: no answer to '${type}'`));
      }, 5000);
      pending.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      child.send({ ...fields, type, id });
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: did not start within ${startTimeoutMs} ms\n${stderr}`));
    }, startTimeoutMs);
    const onExit = (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited before listening (code ${code}, signal ${signal})\n${stderr.trim()}`));
    };
    child.once('exit', onExit);
    child.on('message', function onReady(message) {
      if (!message || message.type !== 'ready') return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('message', onReady);
      resolve({
        name,
        port: message.port,
        pid: child.pid,
        /** Current and peak RSS of the server process in bytes, and its CPU time so far in µs. */
        stats: () => ask('stats').then((m) => ({ rss: m.rss, maxRSS: m.maxRSS, cpu: m.cpu })),
        /** Send a message of `type` and resolve to the child's answer. */
        ask,
        stderr: () => stderr,
        /** Ask it to exit (so --cpu-prof can write its profile), kill it if it does not. */
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(killer);
              done();
            });
            child.send({ type: 'exit' });
          }),
      });
    });
  });
}

module.exports = { startServer, SERVER_FILES };
