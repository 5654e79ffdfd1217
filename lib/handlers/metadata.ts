/** The service document and `$metadata`: static per service, so their bodies are built once by the service. */
import type { Handler } from './context';

export const readServiceDocument: Handler = async () => ({ result: { kind: 'ServiceDocument' } });

export const readMetadata: Handler = async () => ({ result: { kind: 'Metadata' } });
