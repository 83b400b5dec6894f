// The main job: an after-sales assistant under open-loop load, one
// constant-arrival-rate scenario per bucket, gated per bucket on when the
// user gets a USEFUL answer (decision + reason + next step), not when the
// stream first moved. Run it against the built-in assistant:
//
//   usefullatency run --mock examples/aftersales.js
//
// Environment: SUT_URL (set by --mock), DURATION (default 20s), RATE_SCALE
// (multiplies every rate, default 1), FAULTS (comma-separated mock faults
// sent with every request, e.g. premature_commit or slow_fallback).
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';
import { Rate, Trend } from 'k6/metrics';
import exec from 'k6/execution';

const base = __ENV.SUT_URL || 'http://127.0.0.1:8099';
const duration = __ENV.DURATION || '20s';
const scale = Number(__ENV.RATE_SCALE || 1);
const faults = (__ENV.FAULTS || '').split(',').filter((f) => f !== '');

// Per-request quality signals, read together with the latency gates.
const premature = new Rate('premature_commits');
const complete = new Rate('business_fields_complete');
const toolOK = new Rate('tool_success');
const fallback = new Trend('fallback_delay', true);

const buckets = {
  qa: 4, retrieval: 2, single_tool: 3, multi_tool: 2, timeout_recovery: 1,
};

const scenarios = {};
for (const [bucket, rate] of Object.entries(buckets)) {
  scenarios[bucket] = {
    executor: 'constant-arrival-rate',
    rate: Math.max(1, Math.round(rate * scale)),
    timeUnit: '1s',
    duration,
    preAllocatedVUs: Math.ceil(rate * scale * 8),
    maxVUs: Math.ceil(rate * scale * 20),
    gracefulStop: '15s',
    tags: { bucket },
  };
}

export const options = {
  scenarios,
  thresholds: {
    // Latency gates, on the useful answer.
    'usefulsse_useful{bucket:qa}': ['p(95)<2500'],
    'usefulsse_useful{bucket:single_tool}': ['p(95)<4000'],
    // After a tool timeout the user is told within 1 s and offered a hand-off.
    'fallback_delay{bucket:timeout_recovery}': ['p(95)<1000'],
    'usefulsse_mark{mark:handoff}': ['max>0'],
    // Never promise an answer before the tool verified it.
    premature_commits: ['rate==0'],
    business_fields_complete: ['rate>=0.99'],
    'tool_success{bucket:single_tool}': ['rate>=0.99'],
    'tool_success{bucket:multi_tool}': ['rate>=0.99'],
    usefulsse_failed: ['rate<0.01'],
    dropped_iterations: ['count==0'],
  },
  summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max'],
};

// Cost of the model behind the assistant, per million tokens.
const pricing = { inputPer1M: 0.15, outputPer1M: 0.6 };

export default function () {
  const bucket = exec.scenario.name;
  const res = usefulsse.post(`${base}/chat`, {
    bucket,
    tenant: `tenant-${exec.scenario.iterationInTest % 5}`,
    question: 'Where is my refund for order 4711?',
    faults,
  }, {
    dialect: 'business',
    tags: { bucket },
    pricing,
    marks: {
      decision: { fields: ['decision'] },
      verified: { field: 'verified', equals: true },
      tool_timeout: { field: 'tools.refund_rules.status', equals: 'timeout' },
      handoff: { fields: ['handoff'] },
    },
  });
  judge(bucket, res);
}

// judge records the quality signals of one answer.
function judge(bucket, res) {
  const m = res.marks;
  const s = res.state || {};
  const tags = { bucket };
  complete.add(Boolean(s.decision && s.reason && s.next_step), tags);
  if (bucket === 'single_tool' || bucket === 'multi_tool' || bucket === 'timeout_recovery') {
    // A decision is premature when it precedes the tool's verification (or,
    // after a tool timeout, the hand-off that replaces it).
    const backed = [m.verified, m.handoff].filter((t) => t !== null);
    const earliest = backed.length ? Math.min(...backed) : null;
    premature.add(m.decision !== null && (earliest === null || m.decision < earliest), tags);
    const tools = Object.values(s.tools || {});
    toolOK.add(tools.length > 0 && tools.every((t) => t.status === 'ok'), tags);
  }
  if (m.tool_timeout !== null && m.handoff !== null) {
    fallback.add(m.handoff - m.tool_timeout, tags);
  }
  check(res, { 'stream completed': (r) => r.error_code === '' });
}
