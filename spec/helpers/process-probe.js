'use strict';
/**
 * Loaded with `--require` into a service that a survival spec runs as a child process (forked,
 * with an IPC channel): answers the message 'listeners' with how many process-level
 * 'uncaughtException' and 'unhandledRejection' listeners the process has. The library must have
 * none (survival comes from handling, not from a global net), and this probe adds none.
 */
process.on('message', (message) => {
  if (message !== 'listeners') return;
  process.send({
    uncaughtException: process.listenerCount('uncaughtException'),
    unhandledRejection: process.listenerCount('unhandledRejection'),
  });
});
