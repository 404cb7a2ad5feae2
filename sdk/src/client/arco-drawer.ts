// Arco's Drawer, on its own: `SidePanel` loads it with the first panel opened. (An import, not a re-export: the
// build rewrites imports from Arco per component, with their style.)
import { Drawer } from '@arco-design/web-react';

export { Drawer };
