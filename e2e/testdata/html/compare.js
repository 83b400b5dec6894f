// Two buckets for `usefullatency compare --report`: qa always streams from
// ${SSE_URL}/fast; tool from ${SSE_URL}${TOOL_PATH}, /fast for the base run
// and /slow for the new one. The gate on tool's useful time gives the
// comparison page its gate line.
import usefulsse from 'k6/x/usefulsse';

const base = __ENV.SSE_URL;
const toolPath = __ENV.TOOL_PATH || '/fast';

export const options = {
  scenarios: {
    qa: { executor: 'constant-arrival-rate', rate: 15, timeUnit: '1s', duration: '2s', preAllocatedVUs: 10, exec: 'qa' },
    tool: { executor: 'constant-arrival-rate', rate: 15, timeUnit: '1s', duration: '2s', preAllocatedVUs: 10, exec: 'tool' },
  },
  thresholds: {
    'usefulsse_useful{bucket:tool}': ['p(95)<300'],
  },
};

export function qa() {
  usefulsse.post(`${base}/fast`, { q: 'refund?' }, { dialect: 'business', tags: { bucket: 'qa' } });
}

export function tool() {
  usefulsse.post(`${base}${toolPath}`, { q: 'where is my order?' }, { dialect: 'business', tags: { bucket: 'tool' } });
}
