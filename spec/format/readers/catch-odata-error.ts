/** The readers' specs use the shared helper. */
export { catchODataError } from '../../helpers/odata-error';
