// exec.vu.metrics.metadata: set in an iteration, carried by the samples
// pushed after it (not as tags), deleted again.
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';

const marked = new Counter('marked');

export const options = { iterations: 2 };

export default function () {
  exec.vu.metrics.metadata.trace_id = `t${__ITER}`;
  marked.add(1);
  if (exec.vu.metrics.metadata.trace_id !== `t${__ITER}` || exec.vu.metrics.tags.trace_id !== undefined) {
    throw new Error('metadata must read back and must not be a tag');
  }
  delete exec.vu.metrics.metadata.trace_id;
  marked.add(1, { after: 'delete' });
}
