/**
 * `sap:` capabilities enforced by the service over MemoryProvider (capabilities-cases.ts), and
 * `$metadata` saying what the service allows: a provider without write methods
 * (`readOnlyProvider`) serves every set marked `sap:creatable/updatable/deletable="false"`.
 */
import { MemoryProvider, readOnlyProvider } from '../../lib';
import { readEdmx } from '../../lib/edm';
import { createService } from '../../lib/service';
import { CAPABILITIES_DATA, CAPABILITIES_MODEL, describeCapabilities, sendTo } from './capabilities-cases';

describeCapabilities(async () => ({
  service: createService({ model: CAPABILITIES_MODEL, provider: new MemoryProvider(CAPABILITIES_MODEL, CAPABILITIES_DATA), requireIfMatch: false }),
  close: async () => undefined,
}));

/** `name=value` of the sap: attributes of each entity set in a `$metadata` document. */
function setCapabilitiesIn(document: string): Record<string, string[]> {
  const definition = readEdmx(document);
  const sets = definition.schemas.flatMap((schema) => schema.entityContainers ?? []).flatMap((container) => container.entitySets ?? []);
  return Object.fromEntries(
    sets.map((set) => [
      set.name,
      (set.annotationAttributes ?? []).filter((attribute) => attribute.namespace === 'http://www.sap.com/Protocols/SAPData').map((a) => `${a.name}=${a.value}`),
    ]),
  );
}

describe('$metadata says what the service allows', () => {
  it('keeps the model’s own capabilities for a provider that writes', async () => {
    const service = createService({ model: CAPABILITIES_MODEL, provider: new MemoryProvider(CAPABILITIES_MODEL, CAPABILITIES_DATA) });
    expect(setCapabilitiesIn((await sendTo(service, 'GET', '$metadata')).text)).toEqual({
      Customers: [],
      Tags: ['updatable=false'],
      Records: ['creatable=false', 'updatable=false', 'deletable=false'],
      Ledger: ['updatable=false', 'deletable=false'],
      Photos: ['updatable=false'],
    });
  });

  it('marks every set for a provider without write methods (readOnlyProvider), each capability once, sap declared on the document', async () => {
    const provider = readOnlyProvider(new MemoryProvider(CAPABILITIES_MODEL, CAPABILITIES_DATA));
    const service = createService({ model: CAPABILITIES_MODEL, provider });
    const all = ['creatable=false', 'updatable=false', 'deletable=false'];
    expect(setCapabilitiesIn((await sendTo(service, 'GET', '$metadata')).text)).toEqual({
      Customers: all,
      Tags: all,
      Records: all,
      Ledger: all,
      Photos: all,
    });
    expect((await sendTo(service, 'GET', '$metadata')).text).toMatch(/<edmx:Edmx [^>]*xmlns:sap="http:\/\/www\.sap\.com\/Protocols\/SAPData"/);
    const refused = await sendTo(service, 'POST', 'Customers', { ID: 5, Name: 'x', Code: 'x' });
    expect([refused.status, refused.headers.allow]).toEqual([405, 'GET']);
  });

  it('marks only what the provider lacks', async () => {
    const memory = new MemoryProvider(CAPABILITIES_MODEL, CAPABILITIES_DATA);
    const provider = { query: memory.query.bind(memory), create: memory.create.bind(memory), update: memory.update.bind(memory) };
    const service = createService({ model: CAPABILITIES_MODEL, provider });
    expect(setCapabilitiesIn((await sendTo(service, 'GET', '$metadata')).text).Customers).toEqual(['deletable=false']);
  });
});
