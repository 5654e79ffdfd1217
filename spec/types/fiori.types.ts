/** express-odata-v2/fiori: the preview as an app mounts it, beside the service, on Express and on plain Node. */
import express from 'express';
import { createServer } from 'http';
import { loadEdmx } from 'express-odata-v2';
import { DEFAULT_UI5_BOOTSTRAP, fiori, UI5_VERSION, type FioriMiddleware, type FioriOptions } from 'express-odata-v2/fiori';
import { expectType } from './expect.types';

const model = loadEdmx('<edmx:Edmx/>');
const preview = fiori({ model, service: '/odata/' });
expectType<FioriMiddleware>()(preview);
// Constants of their exact text: `ui5: DEFAULT_UI5_BOOTSTRAP` is the default spelled out.
expectType<'https://ui5.sap.com/1.146.0/resources/sap-ui-core.js'>()(DEFAULT_UI5_BOOTSTRAP);
expectType<'1.146.0'>()(UI5_VERSION);

const options: FioriOptions = { model, service: 'https://example.com/odata/', ui5: '/resources/sap-ui-core.js', title: 'Shop' };
fiori(options);

// A plain Node server: the middleware takes Node's request and response.
createServer((request, response) => preview(request, response, () => response.end()));

// @ts-expect-error: the service URL is required (the apps send their requests there)
fiori({ model });

// And an Express app (4 or 5): app.use takes it as it takes odata().
const app = express();
app.use('/', fiori({ model, service: '/odata/' }));
