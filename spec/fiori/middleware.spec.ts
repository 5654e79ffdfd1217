/**
 * express-odata-v2/fiori without a browser: what each path answers (status, content type,
 * caching headers, ETag revalidation, HEAD, methods, redirects, paths that are not its own), the
 * manifest it makes from the model, that the pages carry no inline script, and that every text
 * from the model or the options is escaped. The browser lane (spec/browser) runs the apps.
 */
import express from 'express';
import request from 'supertest';
import { defineModel } from '../../lib/edm';
import { DEFAULT_UI5_BOOTSTRAP, fiori, type FioriOptions } from '../../lib/fiori';
import { SHOP_MODEL } from '../helpers/search-shop';

const SAP = 'http://www.sap.com/Protocols/SAPData';
const sap = (name: string, value: string) => ({ namespace: SAP, prefix: 'sap', name, value });

/** A model whose label, title and set name would break markup if they were not escaped. */
const HOSTILE = defineModel({
  namespace: 'Odd',
  namespaces: { sap: SAP },
  entityTypes: [
    {
      name: 'Thing',
      key: ['ID'],
      properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }],
      annotationAttributes: [sap('label', '<img src=x onerror="alert(1)">&')],
    },
  ],
  entityContainers: [
    {
      name: 'OddService',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Bücher', entityType: 'Odd.Thing' },
        { name: 'ReadOnly', entityType: 'Odd.Thing', annotationAttributes: ['creatable', 'updatable', 'deletable'].map((name) => sap(name, 'false')) },
      ],
    },
  ],
});

function appWith(options: Partial<FioriOptions> = {}, mount = '/'): express.Express {
  const app = express();
  app.use(mount, fiori({ model: SHOP_MODEL, service: '/odata/', ...options }));
  app.use((_request, response) => void response.status(404).type('text/plain').send('not the preview'));
  return app;
}

describe('fiori(): the launch page', () => {
  it('lists every entity set as a link to its app, with what the set allows, as HTML that revalidates', async () => {
    const response = await request(appWith()).get('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
    );
    expect(response.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(response.text).toContain('<h1>ShopService</h1>');
    expect([...response.text.matchAll(/<a href="([^"]+)" data-entity-set="([^"]+)">/g)].map((match) => [match[1], match[2]])).toEqual([
      ['apps/Customers/', 'Customers'],
      ['apps/Orders/', 'Orders'],
      ['apps/Secrets/', 'Secrets'],
    ]);
    expect(response.text).toContain('<a href="/odata/$metadata">$metadata</a>');
  });

  it('escapes labels, names and the title, and links a set whose name is not ASCII by its encoded name', async () => {
    const app = express().use(fiori({ model: HOSTILE, service: '/odata/', title: 'Tom & "Jerry" <b>' }));
    const response = await request(app).get('/');
    expect(response.text).toContain('<h1>Tom &amp; &quot;Jerry&quot; &lt;b&gt;</h1>');
    expect(response.text).toContain(
      '<a href="apps/B%C3%BCcher/" data-entity-set="Bücher"><span class="label">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;</span> <span class="name">Bücher</span> <span class="capabilities">create, edit, delete</span></a>',
    );
    expect(response.text).toContain('<span class="capabilities">display only</span>');
    expect(response.text).not.toContain('<img');
    const page = await request(app).get('/apps/B%C3%BCcher/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp; · Tom &amp; &quot;Jerry&quot; &lt;b&gt;</title>');
  });

  it('answers If-None-Match with its ETag by 304, and HEAD with the headers alone', async () => {
    const app = appWith();
    const { headers } = await request(app).get('/');
    const revalidated = await request(app).get('/').set('if-none-match', `"other", W/${headers.etag}`);
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(headers.etag);
    const head = await request(app).head('/');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(headers['content-length']);
    expect(head.text).toBeUndefined();
  });

  it('redirects to its own path with a slash when mounted under one (its links are relative)', async () => {
    const response = await request(appWith({}, '/preview')).get('/preview?x=1');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe('preview/?x=1');
    expect((await request(appWith({}, '/preview')).get('/preview/')).status).toBe(200);
  });
});

describe("fiori(): an entity set's app", () => {
  it('bootstraps SAPUI5 from the CDN at the tested version by default, with no inline script or style', async () => {
    const response = await request(appWith()).get('/apps/Customers/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.text).toContain(`<script id="sap-ui-bootstrap" src="${DEFAULT_UI5_BOOTSTRAP}" `);
    expect(DEFAULT_UI5_BOOTSTRAP).toBe('https://ui5.sap.com/1.146.0/resources/sap-ui-core.js');
    expect(response.text).toContain('data-sap-ui-resource-roots="{&quot;odatav2.preview&quot;:&quot;./&quot;}"');
    expect(response.text).toContain('data-sap-ui-on-init="module:sap/ui/core/ComponentSupport"');
    expect(response.text).toContain('<div class="component" data-sap-ui-component data-name="odatav2.preview"');
    // Every script has a src; no event handler attribute, no style attribute or element.
    expect([...response.text.matchAll(/<script([^>]*)>/g)].every((match) => / src="/.test(match[1]))).toBe(true);
    expect(response.text).not.toMatch(/<script[^>]*>[^<]|\son\w+=|\sstyle=|<style/);
  });

  it('loads SAPUI5 from the location given, escaped', async () => {
    const response = await request(appWith({ ui5: 'http://127.0.0.1:8080/resources/sap-ui-core.js?a=1&b=2' })).get('/apps/Orders/');
    expect(response.text).toContain('src="http://127.0.0.1:8080/resources/sap-ui-core.js?a=1&amp;b=2"');
  });

  it('serves the manifest: a List Report over the set, its Object Page, and one for each to-many navigation', async () => {
    const response = await request(appWith({ service: 'https://example.com/sap/odata' })).get('/apps/Customers/manifest.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const manifest = JSON.parse(response.text) as Record<string, Record<string, unknown>>;
    expect(manifest['sap.app']).toMatchObject({
      id: 'odatav2.preview',
      title: 'Customers',
      dataSources: { mainService: { uri: 'https://example.com/sap/odata/', type: 'OData', settings: { odataVersion: '2.0' } } },
    });
    expect(manifest['sap.ui5'].models).toEqual({
      '': {
        dataSource: 'mainService',
        preload: true,
        settings: { defaultBindingMode: 'TwoWay', defaultCountMode: 'Inline', refreshAfterChange: false, useBatch: true },
      },
    });
    expect(manifest['sap.ui.generic.app'].pages).toEqual({
      'ListReport|Customers': {
        entitySet: 'Customers',
        component: {
          name: 'sap.suite.ui.generic.template.ListReport',
          list: true,
          settings: { smartVariantManagement: true, dataLoadSettings: { loadDataOnAppLaunch: 'always' } },
        },
        pages: {
          'ObjectPage|Customers': {
            entitySet: 'Customers',
            component: { name: 'sap.suite.ui.generic.template.ObjectPage' },
            pages: {
              'ObjectPage|Orders': { navigationProperty: 'Orders', entitySet: 'Orders', component: { name: 'sap.suite.ui.generic.template.ObjectPage' } },
            },
          },
        },
      },
    });
    // A to-one navigation (Order/Customer) gets no page of its own.
    const orders = JSON.parse((await request(appWith()).get('/apps/Orders/manifest.json')).text) as Record<
      string,
      { pages: Record<string, { pages: object }> }
    >;
    expect(orders['sap.ui.generic.app'].pages['ListReport|Orders'].pages).toEqual({
      'ObjectPage|Orders': { entitySet: 'Orders', component: { name: 'sap.suite.ui.generic.template.ObjectPage' } },
    });
  });

  it('serves the component script and the stylesheet', async () => {
    const component = await request(appWith()).get('/apps/Orders/Component.js');
    expect(component.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(component.text).toContain("AppComponent.extend('odatav2.preview.Component', { metadata: { manifest: 'json' } })");
    const stylesheet = await request(appWith()).get('/preview.css');
    expect(stylesheet.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('redirects the app path without its slash', async () => {
    const response = await request(appWith()).get('/apps/Orders');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe('Orders/');
  });
});

describe('fiori(): what is not its own', () => {
  it.each([
    ['an unknown set', '/apps/Nothing/'],
    ['an unknown file of an app', '/apps/Orders/other.js'],
    ['a name that is not percent-encoded right', '/apps/%E0%A4%A/'],
    ['a path outside it', '/odata/'],
  ])('passes %s to the next handler', async (_case, path) => {
    const response = await request(appWith()).get(path);
    expect(response.status).toBe(404);
    expect(response.text).toBe('not the preview');
  });

  it('answers other methods on its paths with 405 and Allow', async () => {
    const response = await request(appWith()).post('/apps/Orders/manifest.json');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });
});

describe('fiori(): options', () => {
  it.each([
    [{ service: undefined }, 'option service must be a non-empty string'],
    [{ service: 'odata/' }, "option service must be an absolute path (/...) or an http(s) URL, got 'odata/'"],
    [{ ui5: 'javascript:alert(1)' }, "option ui5 must be an http(s) URL, got 'javascript:alert(1)'"],
    [{ ui5: '//cdn.example.com/sap-ui-core.js' }, "option ui5 must be an absolute path (/...) or an http(s) URL, got '//cdn.example.com/sap-ui-core.js'"],
    [{ ui5: 'https://user:secret@example.com/sap-ui-core.js' }, 'option ui5 must not carry a user name or password'],
    [
      { ui5: '/resources/sap-ui-core.js" onload="x' },
      `option ui5 must be a URL without spaces, quotes or angle brackets, got '/resources/sap-ui-core.js" onload="x'`,
    ],
    [{ model: {} }, 'option model must be an EdmModel (use defineModel or loadEdmx)'],
  ])('refuses %j with a TypeError', (options, message) => {
    expect(() => fiori({ model: SHOP_MODEL, service: '/odata/', ...options } as FioriOptions)).toThrow(new TypeError(`express-odata-v2/fiori: ${message}`));
  });
});
