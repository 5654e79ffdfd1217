/** What a user writes to mount the service: odata(options), the error handlers, DEFAULT_LIMITS. */
import express from 'express';
import {
  DEFAULT_LIMITS,
  defineModel,
  MemoryProvider,
  odata,
  odataClientErrorHandler,
  odataErrorHandler,
  type ODataMiddleware,
  type ODataServiceOptions,
  type ServiceLimits,
  type ServiceLogEvent,
} from 'express-odata-v2';
import { expectType } from './expect.types';

const model = defineModel({
  namespace: 'Demo',
  entityTypes: [{ name: 'Product', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] }],
  entityContainers: [{ name: 'Container', isDefaultEntityContainer: true, entitySets: [{ name: 'Products', entityType: 'Demo.Product' }] }],
});
const provider = new MemoryProvider(model, { Products: [{ ID: 1 }] });

// Every option, as a user sets them.
const middleware = odata({
  model,
  provider,
  maxPageSize: 100,
  pageSizes: { Products: 20 },
  limits: { maxTop: 1000, maxBodyBytes: 1 << 20, providerTimeout: 5000 },
  debug: false,
  logger: (event) => {
    expectType<ServiceLogEvent>()(event);
    expectType<'error' | 'warn'>()(event.level);
  },
  requireIfMatch: true,
  now: () => new Date(0),
  csrf: { cookieName: 'csrf' },
});
expectType<ODataMiddleware>()(middleware);

// It mounts on Express 4 and 5 apps, with the error handlers after it.
const app = express();
app.use('/odata', middleware);
app.use(odataErrorHandler());
const server = app.listen(0);
server.on('clientError', odataClientErrorHandler());
server.close();

expectType<ServiceLimits>()(DEFAULT_LIMITS);
const options: ODataServiceOptions = { model, provider, csrf: true };
odata(options);

// @ts-expect-error: model and provider are required
odata({ model });
// @ts-expect-error: maxPageSize is a number
odata({ model, provider, maxPageSize: '100' });
// @ts-expect-error: unknown option (object literals are checked exactly)
odata({ model, provider, pageSize: 100 });
// @ts-expect-error: unknown limit
odata({ model, provider, limits: { maxRows: 10 } });
// @ts-expect-error: the clock returns a Date, not milliseconds
odata({ model, provider, now: () => 1_700_000_000_000 });
// @ts-expect-error: limits are read-only
DEFAULT_LIMITS.maxTop = 5;
