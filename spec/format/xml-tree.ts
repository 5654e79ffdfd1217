/**
 * A tiny namespace-aware element tree over saxes, for targeted XPath-style checks of writer output
 * (Olingo's XMLUnit assertions, without a DOM dependency). Parsing also proves well-formedness.
 */
import { SaxesParser } from 'saxes';

export interface Node {
  readonly uri: string;
  readonly local: string;
  /** Attributes by `{uri}local`, or `local` when not namespaced. */
  readonly attributes: Record<string, string>;
  readonly children: Node[];
  text: string;
}

/** Parse a whole XML document (throws on malformed input). */
export function parseTree(xml: string): Node {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Node[] = [];
  let root: Node | undefined;
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      attributes[attribute.uri === '' ? attribute.local : `{${attribute.uri}}${attribute.local}`] = attribute.value;
    }
    const node: Node = { uri: tag.uri, local: tag.local, attributes, children: [], text: '' };
    if (stack.length > 0) stack[stack.length - 1].children.push(node);
    else root = node;
    stack.push(node);
  });
  parser.on('text', (text) => {
    if (stack.length > 0) stack[stack.length - 1].text += text;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (root === undefined) throw new Error('no root element');
  return root;
}

const NS: Record<string, string> = {
  atom: 'http://www.w3.org/2005/Atom',
  app: 'http://www.w3.org/2007/app',
  d: 'http://schemas.microsoft.com/ado/2007/08/dataservices',
  m: 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata',
  xml: 'http://www.w3.org/XML/1998/namespace',
  xhtml: 'http://www.w3.org/1999/xhtml',
};

function matches(node: Node, step: string): boolean {
  const [prefix, local] = step.includes(':') ? step.split(':') : ['', step];
  return node.local === local && node.uri === (prefix === '' ? '' : NS[prefix]);
}

/** All nodes at a `/`-separated path of prefixed names below `node` (`atom:entry/atom:content/m:properties`). */
export function select(node: Node, path: string): Node[] {
  let current = [node];
  for (const step of path.split('/')) current = current.flatMap((n) => n.children.filter((c) => matches(c, step)));
  return current;
}

/** The single node at a path (fails otherwise). */
export function one(node: Node, path: string): Node {
  const found = select(node, path);
  if (found.length !== 1) throw new Error(`expected one node at ${path}, found ${found.length}`);
  return found[0];
}

/** An attribute by prefixed name (`m:etag`, `href`). */
export function attr(node: Node, name: string): string | undefined {
  if (!name.includes(':')) return node.attributes[name];
  const [prefix, local] = name.split(':');
  return node.attributes[`{${NS[prefix]}}${local}`];
}
