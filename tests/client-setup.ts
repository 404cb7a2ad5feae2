// The client project's setup: its tests wait on what a person would wait for. testing-library's findBy and waitFor
// give up after 1 s by default; on a machine busy with other work a page takes longer than that to draw, so they wait
// up to 10 s here (checking every 50 ms as before): a busy machine is slower, not red.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });
