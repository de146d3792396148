// `tsx scripts/ensure-built.ts`: builds dist/ unless it was built from the current sources. Scripts
// that run the build (`npm run examples:testing`: jest loads dist/) call it first, so that they
// never test a stale build or fail on a missing one.
import { ensureBuilt } from './package/artifact';

ensureBuilt();
