/** The error class users throw from providers and catch in handlers. */
import { ERROR_CODES, isODataError, ODataError, type ErrorCode, type ODataErrorOptions } from 'express-odata-v2';
import { expectType } from './expect.types';

const error = new ODataError(409, 'CONFLICT', 'Already there', { target: 'Products(1)', headers: { 'retry-after': '1' }, cause: new Error('x') });
expectType<number>()(error.status);
expectType<string>()(error.code);
expectType<string | undefined>()(error.target);
const thrown: unknown = error;
if (isODataError(thrown)) expectType<ODataError>()(thrown);
expectType<number>()(ERROR_CODES.URI_UNKNOWN_SEGMENT.status);

const options: ODataErrorOptions = { position: 3 };
new ODataError(400, 'FILTER_SYNTAX', 'bad', options);
const code: ErrorCode = 'FILTER_SYNTAX';
void code;

// @ts-expect-error: the status comes first, as a number
new ODataError('400', 'FILTER_SYNTAX', 'bad');
// @ts-expect-error: unknown option
new ODataError(400, 'FILTER_SYNTAX', 'bad', { status: 400 });
// @ts-expect-error: not a catalogue code
const unknownCode: ErrorCode = 'NO_SUCH_CODE';
// @ts-expect-error: the status is read-only
error.status = 500;
void unknownCode;
