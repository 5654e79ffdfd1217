/** Jest global teardown of the fast lane: close the shared PGlite instance of a run in band (spec/helpers/pglite.ts). */
import { closeSharedPGlite } from './pglite';

export default closeSharedPGlite;
