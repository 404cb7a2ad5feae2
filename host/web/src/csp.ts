// Imported first: the page's Content Security Policy allows no string evaluation, so zod compiles no
// parsers (and does not even probe for it, which the browser would report as a violation). It must run
// before any schema parses, hence a module of its own at the head of the bootstrap's imports.
import { z } from 'zod';

z.config({ jitless: true });
