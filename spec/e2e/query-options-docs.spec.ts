/**
 * docs/query-options.md keeps its word: from "## The other query options" on, every `curl` example
 * is sent to the demo (ROOT: as `npm start` serves it; PAGED: with `maxPageSize: 3`), and its `#`
 * comment (entry IDs, a count, or `status CODE`) or the JSON block that follows it must be what
 * comes back.
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import request from 'supertest';
import { startDemo } from '../helpers/demo';
import type { RunningServer } from '../helpers/server';

const DOC = readFileSync(resolve(__dirname, '../../docs/query-options.md'), 'utf8');
const SECTION = '## The other query options';

interface Example {
  readonly line: string;
  readonly server: 'ROOT' | 'PAGED';
  readonly path: string;
  /** The `#` comment, or the JSON block after the command. */
  readonly expected: { readonly kind: 'comment'; readonly text: string } | { readonly kind: 'body'; readonly text: string };
}

/** Fenced blocks of the section, in order. */
function blocks(markdown: string): { lang: string; lines: string[] }[] {
  const result: { lang: string; lines: string[] }[] = [];
  let current: { lang: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      if (current === undefined) {
        current = { lang: line.slice(3).trim(), lines: [] };
      } else {
        result.push(current);
        current = undefined;
      }
    } else if (current !== undefined) {
      current.lines.push(line);
    }
  }
  return result;
}

const ARGUMENT = /\s+(-d|--data-urlencode)\s+(?:'([^']*)'|"((?:[^"\\]|\\.)*)")/y;

/** `curl -sG "$ROOT/path" -d 'raw' --data-urlencode 'name=value'` -> server and path with query, as curl builds it. */
function parseCurl(command: string): { server: 'ROOT' | 'PAGED'; path: string } {
  const head = /^curl -sG "\$(ROOT|PAGED)\/((?:[^"\\]|\\.)*)"/.exec(command);
  if (head === null) throw new Error(`unreadable example: ${command}`);
  const unescape = (text: string) => text.replace(/\\\$/g, '$');
  const parts: string[] = [];
  let position = head[0].length;
  for (;;) {
    ARGUMENT.lastIndex = position;
    const match = ARGUMENT.exec(command);
    if (match === null) break;
    position = ARGUMENT.lastIndex;
    const value = match[2] ?? unescape(match[3]);
    if (match[1] === '-d') {
      parts.push(value);
    } else {
      const equals = value.indexOf('=');
      parts.push(`${value.slice(0, equals)}=${encodeURIComponent(value.slice(equals + 1))}`);
    }
  }
  if (command.slice(position).trim() !== '') throw new Error(`unread arguments in: ${command}`);
  const path = unescape(head[2]);
  return { server: head[1] as 'ROOT' | 'PAGED', path: parts.length === 0 ? path : `${path}?${parts.join('&')}` };
}

function examples(): Example[] {
  const start = DOC.indexOf(SECTION);
  if (start < 0) throw new Error(`docs/query-options.md has no '${SECTION}'`);
  const list = blocks(DOC.slice(start));
  const found: Example[] = [];
  list.forEach((block, index) => {
    if (block.lang !== 'sh') return;
    for (const line of block.lines) {
      if (!line.startsWith('curl ')) continue;
      const comment = /\s{2,}# (.*)$/.exec(line);
      const command = comment === null ? line.trim() : line.slice(0, comment.index).trim();
      const { server, path } = parseCurl(command);
      if (comment !== null) {
        found.push({ line: command, server, path, expected: { kind: 'comment', text: comment[1].trim() } });
      } else {
        const next = list[index + 1];
        if (next === undefined || next.lang !== 'json') throw new Error(`no '#' comment and no JSON block after: ${command}`);
        found.push({ line: command, server, path, expected: { kind: 'body', text: next.lines.join('\n').trim() } });
      }
    }
  });
  return found;
}

/** IDs of the top-level entries of an Atom feed or a JSON feed (inline ones left out). */
function topLevelIds(body: string, json: boolean): string {
  let ids: number[];
  if (json) {
    const parsed = JSON.parse(body) as { d: { ID: number }[] | { results: { ID: number }[] } };
    ids = (Array.isArray(parsed.d) ? parsed.d : parsed.d.results).map((entity) => entity.ID);
  } else {
    let xml = body;
    for (let previous = ''; previous !== xml;) {
      previous = xml;
      xml = xml.replace(/<m:inline>(?:(?!<m:inline>)[\s\S])*?<\/m:inline>/g, '');
    }
    ids = [...xml.matchAll(/<entry(?: m:etag="[^"]*")?><id>[^<]*\((\d+)\)<\/id>/g)].map((match) => Number(match[1]));
  }
  return ids.length === 0 ? '(none)' : ids.join(' ');
}

describe('docs/query-options.md examples', () => {
  const EXAMPLES = examples();
  let root: RunningServer;
  let paged: RunningServer;
  beforeAll(async () => {
    [root, paged] = await Promise.all([startDemo(), startDemo(undefined, { maxPageSize: 3 })]);
  });
  afterAll(() => Promise.all([root.close(), paged.close()]));

  it('has examples for every option it documents', () => {
    const text = EXAMPLES.map((example) => example.path).join('\n');
    for (const option of ['$orderby', '$top', '$skip', '$skiptoken', '$inlinecount', '/$count', '$select', '$expand', '$format', 'sap-client', 'search=']) {
      expect([option, text.includes(option)]).toEqual([option, true]);
    }
  });

  it.each(EXAMPLES.map((example) => [example.line, example] as const))('%s', async (_line, example) => {
    const server = example.server === 'ROOT' ? root : paged;
    const response = await request(server.url).get(`/odata/${example.path}`);
    const { expected } = example;
    if (expected.kind === 'body') {
      expect(response.status).toBe(200);
      const written = expected.text
        .split('http://localhost:4004/odata/')
        .join(`${root.url}/odata/`)
        .split('http://localhost:4005/odata/')
        .join(`${paged.url}/odata/`);
      expect(response.text).toBe(written);
      return;
    }
    const error = /^(\d{3}) ([A-Z_]+)$/.exec(expected.text);
    if (error !== null) {
      const code = /<m:code>([A-Z_]+)<\/m:code>|"code":"([A-Z_]+)"/.exec(response.text);
      expect([response.status, code?.[1] ?? code?.[2]]).toEqual([Number(error[1]), error[2]]);
      return;
    }
    expect(response.status).toBe(200);
    const contentType = String(response.headers['content-type']);
    const actual = contentType.startsWith('text/plain') ? response.text : topLevelIds(response.text, contentType.startsWith('application/json'));
    expect(actual).toBe(expected.text);
  });
});
