// The API server of `./tessera dev` (restarted by node --watch on change).
import { startStudio } from '../host/server/src/main.ts';
import { ROOT } from './paths.ts';

await startStudio({ root: ROOT });
