// A vector scan worker of the embedded engine: holds shared read-only views of dataset matrices and
// answers the best rows of its share of them for a query vector.
import { parentPort } from 'node:worker_threads';
import { scan } from './scan.mjs';

/** datasetId -> { version, matrix (Float32Array over a SharedArrayBuffer), dims } */
const held = new Map();

parentPort.on('message', (m) => {
  if (m.type === 'hold') {
    held.set(m.datasetId, { version: m.version, matrix: new Float32Array(m.buffer), dims: m.dims });
    return;
  }
  if (m.type === 'drop') {
    held.delete(m.datasetId);
    return;
  }
  if (m.type === 'scan') {
    const h = held.get(m.datasetId);
    if (!h || h.version !== m.version) return parentPort.postMessage({ id: m.id, missing: true });
    parentPort.postMessage({ id: m.id, best: scan(h.matrix, h.dims, m.from, m.to, m.q, m.k) });
  }
});
