/**
 * The AtomPub service document (RFC 5023 §8, MS-ODATA §2.2.6.2.7): one workspace titled
 * "Default" with a collection per entity set of the default container, hrefs relative to
 * `xml:base`. The part after `xml:base` depends only on the model and is built once per model.
 */
import type { EdmModel } from '../../edm/model';
import type { WriterContext } from '../context';
import { APP_NS, ATOM_NS, XML_DECLARATION } from '../names';
import { encodePathSegment } from '../values';
import { escapeXmlAttribute, escapeXmlText } from '../xml/escape';

const bodies = new WeakMap<EdmModel, string>();

function workspace(model: EdmModel): string {
  let body = bodies.get(model);
  if (body === undefined) {
    body = '<workspace><atom:title>Default</atom:title>';
    for (const set of model.defaultContainer.entitySets) {
      body += `<collection href="${escapeXmlAttribute(encodePathSegment(set.name))}"><atom:title>${escapeXmlText(set.name)}</atom:title></collection>`;
    }
    body += '</workspace></service>';
    bodies.set(model, body);
  }
  return body;
}

/** The service document in AtomPub (`application/atomsvc+xml`). */
export function writeAtomServiceDocument(context: WriterContext): string {
  return (
    XML_DECLARATION +
    `<service xml:base="${escapeXmlAttribute(context.serviceRoot)}" xmlns:atom="${ATOM_NS}" xmlns:app="${APP_NS}" xmlns="${APP_NS}">` +
    workspace(context.model)
  );
}
