// The API server of `./tessera dev` (restarted by node --watch on change).
import { ROOT } from './paths.ts';
import { buildVendor, useVendor } from './vendor.ts';

if (buildVendor()) useVendor();
const { startStudio } = await import('../host/server/src/main.ts');
await startStudio({ root: ROOT });
