import { setFlagsFromString } from 'node:v8';

// V8 allocates the objects of an allocation site (an object or array literal) straight into the old
// generation once enough of them outlived a young-generation collection ("allocation-site pretenuring").
// A burst of slow requests (sign-ups hashing passwords while the embedded database writes on this
// thread) kept the request path's objects alive long enough for V8 to decide so for its literal sites,
// and the decision stayed: young collections took 3 to 6 ms instead of about 0.5, the heap grew by about
// 2.5 MB between them, and a kept current-user call took up to about twice the CPU (PGlite, 1,000
// sessions, the portal's user time a request: 44 to 68 µs before, 27 to 37 after). V8 reads the flag
// at each collection, so setting it here, before the first request, is enough.
setFlagsFromString('--no-allocation-site-pretenuring');
