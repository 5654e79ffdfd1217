/**
 * `npm start` as a user runs it: examples/odata-demo/server.js in its own process (and the
 * existing-app's server.js, built the same way). It listens on 127.0.0.1 unless HOST says
 * otherwise, takes PORT (0: any free port), prints where it listens, and answers a method Node's
 * HTTP parser does not know with 501 and an OData error body.
 */
import { type ChildProcess, spawn } from 'child_process';
import { connect } from 'net';
import { resolve } from 'path';

const SERVER = resolve(__dirname, '..', '..', 'examples', 'odata-demo', 'server.js');
const EXISTING_APP_SERVER = resolve(__dirname, '..', '..', 'examples', 'existing-app', 'server.js');

interface Started {
  readonly child: ChildProcess;
  readonly line: string;
  readonly root: string;
}

/** Start a server script with extra environment variables; resolves with its first output line and the root it names. */
function start(env: Record<string, string>, script = SERVER, banner = /^ODataDemo service: (\S+)/): Promise<Started> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n')[0];
      const match = banner.exec(line);
      if (output.includes('\n') && match !== null) done({ child, line, root: match[1] });
    });
    child.on('exit', (code) => fail(new Error(`the demo exited with ${code}: ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.once('exit', () => done());
    child.kill();
  });
}

function raw(port: number, bytes: string): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    socket.on('close', () => done(out));
    socket.on('error', fail);
  });
}

describe('examples/odata-demo/server.js', () => {
  it('listens on 127.0.0.1 by default, says so, and serves the service there', async () => {
    const { child, line, root } = await start({ PORT: '0', HOST: '' });
    try {
      expect(root).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/odata\/$/);
      expect(line).toContain('listening on 127.0.0.1; HOST and PORT change that');
      const response = await fetch(`${root}Products(1)?$format=json`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { d: { Name: string } }).d.Name).toBe('Milk');
    } finally {
      await stop(child);
    }
  });

  it('binds the interface HOST names', async () => {
    const { child, line, root } = await start({ PORT: '0', HOST: '0.0.0.0' });
    try {
      expect(line).toContain('listening on 0.0.0.0;');
      const port = Number(new URL(root).port);
      expect((await fetch(`http://127.0.0.1:${port}/odata/`)).status).toBe(200);
    } finally {
      await stop(child);
    }
  });

  it('answers FOO /odata/Products with 501 and an OData error body, not a bare 400', async () => {
    const { child, root } = await start({ PORT: '0', HOST: '' });
    try {
      const response = await raw(Number(new URL(root).port), 'FOO /odata/Products HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n');
      expect(response.split('\r\n')[0]).toBe('HTTP/1.1 501 Not Implemented');
      expect(response).toContain(
        '{"error":{"code":"METHOD_NOT_IMPLEMENTED","message":{"lang":"en-US","value":"The HTTP method FOO is not implemented by this service;',
      );
    } finally {
      await stop(child);
    }
  });

  it('examples/existing-app/server.js: 127.0.0.1 by default, and 501 for an unknown method', async () => {
    const { child, root } = await start({ PORT: '0', HOST: '' }, EXISTING_APP_SERVER, /^Acme app: (\S+)/);
    try {
      expect(root).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const response = await raw(Number(new URL(root).port), 'FOO /api/odata/Orders HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(response.split('\r\n')[0]).toBe('HTTP/1.1 501 Not Implemented');
      expect(response).toContain('<m:code>METHOD_NOT_IMPLEMENTED</m:code>');
    } finally {
      await stop(child);
    }
  });
});
