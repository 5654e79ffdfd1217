/**
 * Values a careless or hostile provider can throw, each made fresh by its factory: every one hides
 * SECRET wherever it can hold text (a message, a symbol's description, a trap's error), so a spec
 * can check that none of it reaches a client. Inspecting any of them the usual way throws
 * (`instanceof` on the Proxies, a property read on the throwing getters, a template literal on the
 * symbol), which is what the library must never do.
 */
import { ODataError } from '../../lib/errors';

/** Text no response may contain. */
export const SECRET = 'hunter2-secret';

const trapError = (): Error => new Error(`trap: ${SECRET}`);

/** Every Proxy trap, each throwing. */
const THROWING_TRAPS: ProxyHandler<object> = {
  get: () => {
    throw trapError();
  },
  set: () => {
    throw trapError();
  },
  has: () => {
    throw trapError();
  },
  deleteProperty: () => {
    throw trapError();
  },
  ownKeys: () => {
    throw trapError();
  },
  getOwnPropertyDescriptor: () => {
    throw trapError();
  },
  defineProperty: () => {
    throw trapError();
  },
  getPrototypeOf: () => {
    throw trapError();
  },
  setPrototypeOf: () => {
    throw trapError();
  },
  isExtensible: () => {
    throw trapError();
  },
  preventExtensions: () => {
    throw trapError();
  },
  apply: () => {
    throw trapError();
  },
  construct: () => {
    throw trapError();
  },
};

/** An object whose every field a reader looks at is a getter that throws. */
function throwingGetters(target: object): object {
  const getter = {
    get: (): never => {
      throw trapError();
    },
    enumerable: true,
    configurable: true,
  };
  // The stack first: replacing it makes V8 format the old one, which reads name and message.
  for (const name of ['stack', 'name', 'message', 'code', 'cause', 'errors', 'status', 'then', 'toString', 'toJSON', Symbol.toPrimitive, Symbol.toStringTag]) {
    Object.defineProperty(target, name, getter);
  }
  return target;
}

/** `[label, make]`: each hostile value, made anew per use (a revoked Proxy cannot be un-revoked). */
export const HOSTILE_VALUES: readonly (readonly [string, () => unknown])[] = [
  ['a Proxy whose every trap throws', () => new Proxy({}, THROWING_TRAPS)],
  ['a Proxy of an Error whose every trap throws', () => new Proxy(new Error(SECRET), THROWING_TRAPS)],
  ['a callable Proxy whose every trap throws', () => new Proxy(() => SECRET, THROWING_TRAPS)],
  [
    'a revoked Proxy',
    () => {
      const { proxy, revoke } = Proxy.revocable(new Error(SECRET), {});
      revoke();
      return proxy;
    },
  ],
  [
    'a Proxy that claims to be an ODataError',
    () => new Proxy(ODataError.fromCode('FORBIDDEN', { detail: SECRET }), { ...THROWING_TRAPS, getPrototypeOf: () => ODataError.prototype }),
  ],
  ['an object whose getters throw', () => throwingGetters({})],
  ['an Error whose getters throw', () => throwingGetters(new Error(SECRET))],
  [
    'an ODataError whose status a getter replaced',
    () => {
      const error = ODataError.fromCode('FORBIDDEN', { detail: SECRET });
      Object.defineProperty(error, 'status', {
        get: (): never => {
          throw trapError();
        },
      });
      return error;
    },
  ],
  ['an ODataError with Proxy headers', () => ODataError.fromCode('FORBIDDEN', { detail: SECRET }, { headers: new Proxy({}, THROWING_TRAPS) })],
  ['a symbol', () => Symbol(SECRET)],
  ['a bigint', () => 98765432109876543210n],
  ['null', () => null],
  ['undefined', () => undefined],
  ['a string', () => SECRET],
];
