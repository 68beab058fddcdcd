// The process's first steps, taken before any library loads: V8's flag (see v8Flags.ts), then a tick
// object held (see keptTickObject.ts; exported, so this module holds it for the process's life: a
// module-level variable nothing reads would be collected). A bundle evaluates every library it imports
// before its own first line, so the portal itself (start.ts, and the libraries it imports) is loaded only
// after them.
import './v8Flags.js';
export { keptTickObject } from './keptTickObject.js';

await import('./start.js');
