/** The preview's static files: the component every app starts, and one stylesheet. */
import { COMPONENT_NAME } from './manifest';

/**
 * `Component.js`: Fiori elements' application component, configured by the `manifest.json` beside
 * it. The same text for every app; what differs is in the manifest.
 */
export const COMPONENT_SCRIPT = `sap.ui.define(['sap/suite/ui/generic/template/lib/AppComponent'], function (AppComponent) {
  'use strict';
  return AppComponent.extend('${COMPONENT_NAME}.Component', { metadata: { manifest: 'json' } });
});
`;

/** `preview.css`: the launch page's look, and the full height an app needs. */
export const STYLESHEET = `html, body.app { height: 100%; margin: 0; }
body.app .component { height: 100%; }
body.launch { margin: 0 auto; max-width: 48rem; padding: 1rem 1.5rem; font: 1rem/1.5 system-ui, sans-serif; color: #1d2d3e; }
body.launch h1 { font-size: 1.5rem; font-weight: 600; }
body.launch ul.sets { list-style: none; padding: 0; }
body.launch ul.sets a { display: block; padding: 0.6rem 0.8rem; margin: 0.4rem 0; border: 1px solid #d9d9d9; border-radius: 0.5rem; color: inherit; text-decoration: none; }
body.launch ul.sets a:hover, body.launch ul.sets a:focus { border-color: #0064d9; }
body.launch .label { font-weight: 600; }
body.launch .name { color: #556b82; font-family: ui-monospace, monospace; }
body.launch .capabilities { float: right; color: #556b82; font-size: 0.875rem; }
`;
