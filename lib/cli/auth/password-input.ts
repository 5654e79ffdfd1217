/**
 * The password `user add` stores, read from standard input, never from the command line (where
 * `ps` and the shell history show it): at a terminal it is typed twice without echo; piped, it is
 * the input's one line.
 */
import { CliError } from '../errors';
import type { CliIO } from '../io';

/** More than any password; a bigger input is a mistake (a file piped in by accident). */
const MAX_INPUT_BYTES = 4096;

/** NIST SP 800-63B §5.1.1.2: memorized secrets of at least 8 characters. */
const MIN_LENGTH = 8;

type Input = NonNullable<CliIO['stdin']>;

/** All of a piped input (a CliError when it is over the bound or not UTF-8). */
async function readPiped(input: Input): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_INPUT_BYTES) throw new CliError(`The password on standard input is longer than ${MAX_INPUT_BYTES} bytes.`);
    chunks.push(bytes);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new CliError('The password on standard input is not UTF-8 text.');
  }
}

/** One line typed at a terminal in raw mode, not echoed; Ctrl-C or Ctrl-D abandon it. */
function readHidden(input: Input & { setRawMode(raw: boolean): unknown }): Promise<string> {
  return new Promise((done, fail) => {
    let typed = '';
    const finish = (outcome: () => void): void => {
      input.removeListener('data', onData);
      input.setRawMode(false);
      input.pause();
      outcome();
    };
    const onData = (chunk: Buffer | string): void => {
      for (const character of chunk.toString()) {
        if (character === '\r' || character === '\n') return finish(() => done(typed));
        if (character === '\u0003' || character === '\u0004') return finish(() => fail(new CliError('No password given; nothing was written.')));
        if (character === '\u007f' || character === '\b') typed = [...typed].slice(0, -1).join('');
        else if (typed.length < MAX_INPUT_BYTES) typed += character;
      }
    };
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
  });
}

/** The password, checked: one line, at least 8 characters. */
export async function readPassword(io: CliIO, user: string): Promise<string> {
  const input = io.stdin;
  if (input === undefined) throw new CliError('No standard input to read the password from.');
  let password: string;
  if (input.isTTY === true && input.setRawMode !== undefined) {
    const terminal = input as Input & { setRawMode(raw: boolean): unknown };
    io.err(`Password for ${user} (not shown):`);
    password = await readHidden(terminal);
    io.err('Again:');
    if ((await readHidden(terminal)) !== password) throw new CliError('The two passwords differ; nothing was written.');
  } else {
    const text = await readPiped(input);
    password = text.replace(/\r?\n$/, '');
    if (/[\r\n]/.test(password)) throw new CliError('Standard input holds more than one line: pipe the password alone.');
  }
  if ([...password].length < MIN_LENGTH) throw new CliError(`The password is shorter than ${MIN_LENGTH} characters; nothing was written.`);
  return password;
}
