/** Jest global teardown of `npm run test:package`: remove what the setup packed and unpacked. */
import { rmSync } from 'fs';
import { FOLDERS_KEY } from './global-setup';

export default function globalTeardown(): void {
  const folders = ((globalThis as Record<symbol, unknown>)[FOLDERS_KEY] ?? []) as string[];
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}
