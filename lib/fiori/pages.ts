/**
 * The preview's HTML: the launch page (a list of the entity sets) and each app's page, which
 * only bootstraps SAPUI5 and names the component. No inline script or style: the pages run under
 * a Content-Security-Policy without 'unsafe-inline' for scripts. Every text taken from the model
 * or the options is escaped for where it goes (an entity set name is not trusted markup).
 */
import type { EdmEntitySet } from '../edm';
import { sapSwitch, sapText } from '../edm/sap';
import { COMPONENT_NAME } from './manifest';
import type { ResolvedFioriOptions } from './options';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` for HTML text or a quoted attribute value. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/** The path segment of a set's app, relative to the launch page (`apps/Products/`). */
function appPath(entitySet: EdmEntitySet): string {
  return `apps/${encodeURIComponent(entitySet.name)}/`;
}

/** What a client may do with a set's entries, by its `sap:` capabilities: `create, edit, delete`, or `display only`. */
function capabilitiesText(entitySet: EdmEntitySet): string {
  const allowed = [
    sapSwitch(entitySet, 'creatable') !== false ? 'create' : undefined,
    sapSwitch(entitySet, 'updatable') !== false ? 'edit' : undefined,
    sapSwitch(entitySet, 'deletable') !== false ? 'delete' : undefined,
  ].filter((word) => word !== undefined);
  return allowed.length === 0 ? 'display only' : allowed.join(', ');
}

/** A set's label: the set's or its type's `sap:label`, else its name. */
export function labelOf(entitySet: EdmEntitySet): string {
  return sapText(entitySet, 'label') ?? sapText(entitySet.entityType, 'label') ?? entitySet.name;
}

function page(title: string, stylesheet: string, head: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">`,
    head,
    '</head>',
    body,
    '</html>\n',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** The launch page: every entity set of the service, each a link to its app. */
export function launchPage(options: ResolvedFioriOptions): string {
  const sets = options.model.defaultContainer.entitySets.map((set) => {
    const label = labelOf(set);
    return [
      `<li><a href="${escapeHtml(appPath(set))}" data-entity-set="${escapeHtml(set.name)}">`,
      `<span class="label">${escapeHtml(label)}</span>`,
      label === set.name ? '' : ` <span class="name">${escapeHtml(set.name)}</span>`,
      ` <span class="capabilities">${escapeHtml(capabilitiesText(set))}</span>`,
      '</a></li>',
    ].join('');
  });
  const service = escapeHtml(options.service);
  return page(
    `${options.title} · Fiori preview`,
    'preview.css',
    '',
    [
      '<body class="launch">',
      `<header><h1>${escapeHtml(options.title)}</h1>`,
      `<p>Each entity set of <a href="${service}">${service}</a> (<a href="${service}$metadata">$metadata</a>) as a SAP Fiori elements List Report with its Object Page.</p></header>`,
      sets.length === 0 ? '<main><p>The service has no entity sets.</p></main>' : `<main><ul class="sets">\n${sets.join('\n')}\n</ul></main>`,
      '</body>',
    ].join('\n'),
  );
}

/** SAPUI5's bootstrap configuration, as `data-sap-ui-*` attributes of its script element. */
function bootstrapAttributes(options: ResolvedFioriOptions): string {
  const attributes: [string, string][] = [
    ['id', 'sap-ui-bootstrap'],
    ['src', options.ui5],
    ['data-sap-ui-theme', 'sap_horizon'],
    ['data-sap-ui-async', 'true'],
    ['data-sap-ui-compat-version', 'edge'],
    ['data-sap-ui-resource-roots', JSON.stringify({ [COMPONENT_NAME]: './' })],
    // ComponentSupport starts the component named by the element below: no inline script needed.
    ['data-sap-ui-on-init', 'module:sap/ui/core/ComponentSupport'],
    // Personalisation (table variants) lives in the browser's session, not in a backend the service does not have.
    ['data-sap-ui-flexibility-services', JSON.stringify([{ connector: 'SessionStorageConnector' }])],
  ];
  return attributes.map(([name, value]) => `${name}="${escapeHtml(value)}"`).join(' ');
}

/** The page of the app over `entitySet` (served at `apps/<set>/`). */
export function appPage(options: ResolvedFioriOptions, entitySet: EdmEntitySet): string {
  const component = [
    'data-sap-ui-component',
    `data-name="${escapeHtml(COMPONENT_NAME)}"`,
    'data-id="container"',
    `data-settings="${escapeHtml(JSON.stringify({ id: 'preview' }))}"`,
    'data-height="100%"',
  ].join(' ');
  return page(
    `${labelOf(entitySet)} · ${options.title}`,
    '../../preview.css',
    `<script ${bootstrapAttributes(options)}></script>`,
    ['<body class="sapUiBody app">', `<div class="component" ${component}></div>`, '</body>'].join('\n'),
  );
}
